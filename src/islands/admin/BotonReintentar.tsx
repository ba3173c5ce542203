/**
 * 'Reintentar' on a failed background job or mail of /admin/trabajos (issue 16): queues it again
 * and reloads the page, where it now shows as queued. A refusal shows the server's sentence.
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from '../comun/Campo';
import { precargar, reintentarCorreo, reintentarTrabajo } from './api';

export interface BotonReintentarProps {
  tipo: 'trabajo' | 'correo';
  id: number;
  /** What it is, for the button's accessible name and the message ('el correo a ana@x.cl'). */
  descripcion: string;
}

export default function BotonReintentar({ tipo, id, descripcion }: BotonReintentarProps) {
  const hidratado = useHidratado();
  const [enviando, setEnviando] = useState(false);

  async function reintentar() {
    setEnviando(true);
    const r = await (tipo === 'trabajo' ? reintentarTrabajo(id) : reintentarCorreo(id));
    if (!r.ok) {
      setEnviando(false);
      notificar(r.detalle, 'error');
      return;
    }
    notificar(`Se volvió a poner en cola: ${descripcion}`, 'exito');
    window.location.reload();
  }

  return (
    <button
      type="button"
      className="secundario"
      disabled={!hidratado || enviando}
      aria-busy={enviando || undefined}
      aria-label={`Reintentar: ${descripcion}`}
      onFocus={precargar}
      onPointerEnter={precargar}
      onClick={reintentar}
    >
      Reintentar
    </button>
  );
}

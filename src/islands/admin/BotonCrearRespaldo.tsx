/**
 * 'Crear respaldo' on /admin/respaldos (issue 28): makes a backup now and reloads the page, where
 * it shows first in the list. A refusal (one already running, a full disk) shows the server's sentence.
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from '../comun/Campo';
import { crearRespaldo, precargar } from './api';

export default function BotonCrearRespaldo() {
  const hidratado = useHidratado();
  const [creando, setCreando] = useState(false);

  async function crear() {
    setCreando(true);
    const r = await crearRespaldo();
    if (!r.ok) {
      setCreando(false);
      notificar(r.detalle, 'error');
      return;
    }
    notificar(`Respaldo creado: ${r.data.nombre}`, 'exito');
    window.location.reload();
  }

  return (
    <button
      type="button"
      disabled={!hidratado || creando}
      aria-busy={creando || undefined}
      onFocus={precargar}
      onPointerEnter={precargar}
      onClick={crear}
    >
      {creando ? 'Creando respaldo…' : 'Crear respaldo'}
    </button>
  );
}

/**
 * Eliminar on a capsule, material or manual (docs/SPEC.md sections 2 and 8): asks first, then deletes;
 * on success it says so ('… eliminado con exito') and goes to the section's list, otherwise it
 * says it could not and stays. The server decides who may delete; this button only asks.
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from './Campo';
import { Confirmacion } from './Confirmacion';
import { MENSAJES } from './mensajes';
import { eliminar, type TipoRecurso } from './recursos';

export interface BotonEliminarProps {
  tipo: TipoRecurso;
  id: number;
  titulo: string;
  /** Where to go once deleted (the section's list). */
  destino: string;
}

const NOMBRES: Record<TipoRecurso, string> = { capsula: 'la cápsula', material: 'el material', manual: 'el manual' };

export default function BotonEliminar({ tipo, id, titulo, destino }: BotonEliminarProps) {
  const hidratado = useHidratado();
  const [abierto, setAbierto] = useState(false);
  const [eliminando, setEliminando] = useState(false);

  async function confirmar() {
    setEliminando(true);
    if (await eliminar(tipo, id)) {
      notificar(MENSAJES[tipo].eliminado(titulo), 'exito');
      window.location.assign(destino);
      return;
    }
    setEliminando(false);
    setAbierto(false);
    notificar(MENSAJES[tipo].noEliminado(titulo), 'error');
  }

  return (
    <>
      <button type="button" className="secundario peligro" disabled={!hidratado} onClick={() => setAbierto(true)}>
        <svg className="icono" aria-hidden="true">
          <use href="#i-eliminar" />
        </svg>
        Eliminar
      </button>
      <Confirmacion abierto={abierto} titulo="Eliminar" ocupado={eliminando} onCancelar={() => setAbierto(false)} onConfirmar={confirmar}>
        <p>
          ¿Eliminar {NOMBRES[tipo]} <strong>{titulo}</strong>? Se borrarán también sus comentarios y me gusta. Esta acción no se puede
          deshacer.
        </p>
      </Confirmacion>
    </>
  );
}

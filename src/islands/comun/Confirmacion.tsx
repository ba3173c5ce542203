/**
 * The one 'are you sure?' dialog before a destructive action (deleting content, a comment, or a
 * reported item from the moderation queue): Cancelar and the action's button, both disabled
 * while the call is out, and no closing halfway through it.
 */
import type { ReactNode } from 'react';
import { Modal } from './Modal';

export interface ConfirmacionProps {
  abierto: boolean;
  titulo: string;
  /** While the action's call is out: the buttons wait and the dialog stays. */
  ocupado: boolean;
  onCancelar: () => void;
  onConfirmar: () => void;
  /** The action's button; 'Eliminar' unless told. */
  boton?: string;
  /** The question, naming what goes and what follows. */
  children: ReactNode;
}

export function Confirmacion({ abierto, titulo, ocupado, onCancelar, onConfirmar, boton = 'Eliminar', children }: ConfirmacionProps) {
  const cancelar = () => !ocupado && onCancelar();
  return (
    <Modal
      abierto={abierto}
      titulo={titulo}
      onCerrar={cancelar}
      pie={
        <>
          <button type="button" className="secundario" disabled={ocupado} onClick={cancelar}>
            Cancelar
          </button>
          <button type="button" className="peligro" disabled={ocupado} aria-busy={ocupado || undefined} onClick={onConfirmar}>
            {boton}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

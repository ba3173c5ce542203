/**
 * What every comment thread draws the same way (SPEC.md sections 3 and 4), for capsules,
 * materials and manuals as for the forum: the author line and text, the Responder toggle and the
 * 'Ver N respuestas' / 'Ocultar N respuestas' toggle.
 */
import { useState } from 'react';
import type { components } from '../../lib/api/schema';
import { formatearFecha, nombreCorto } from '../../lib/format';
import type { UsuarioSesion } from '../../lib/stores/session';
import { AvatarAutor } from './AvatarAutor';
import { Modal } from './Modal';

interface Publicado {
  contenido: string;
  fecha_creacion: string;
  id_usuario: components['schemas']['Autor'];
  editado?: boolean;
  eliminado?: boolean;
}

/** What a placeholder of a deleted comment with replies shows, without author or avatar. */
export const COMENTARIO_ELIMINADO = 'Comentario eliminado';

/**
 * Avatar, name and date ('(editado)' after a change), then the text; a deleted comment kept for
 * its replies shows only 'Comentario eliminado'. `enlazado`: the name leads to the author's profile.
 */
export function TextoComentario({ comentario, enlazado = false }: { comentario: Publicado; enlazado?: boolean }) {
  if (comentario.eliminado) return <p className="comentario-eliminado">{COMENTARIO_ELIMINADO}</p>;
  const autor = comentario.id_usuario;
  const nombre = nombreCorto(autor);
  return (
    <>
      <header>
        <AvatarAutor id={autor.id} nombre={nombre} foto={autor.foto_perfil} />
        <div>
          {enlazado ? <a href={`/perfil/${autor.id}`}>{nombre}</a> : <strong>{nombre}</strong>}
          <span>
            {formatearFecha(comentario.fecha_creacion)}
            {comentario.editado && <span className="editado"> (editado)</span>}
          </span>
        </div>
      </header>
      <p>{comentario.contenido}</p>
    </>
  );
}

/** Whether this person may edit and delete the comment: its author, or an admin. */
export const puedeCambiar = (usuario: UsuarioSesion | undefined, comentario: Publicado): boolean =>
  usuario !== undefined && !comentario.eliminado && (usuario.id === comentario.id_usuario.id || usuario.groups.includes('admin'));

interface AccionesPropiasProps {
  /** Names the comment in the buttons' accessible names, e.g. 'comentario de Ana Pérez'. */
  nombre: string;
  onEditar: () => void;
  /** Deletes; resolves to whether it was deleted (the dialog stays open on failure). */
  onEliminar: () => Promise<boolean>;
}

/** Editar and Eliminar on one's own comment; Eliminar asks first. */
export function AccionesPropias({ nombre, onEditar, onEliminar }: AccionesPropiasProps) {
  const [confirmando, setConfirmando] = useState(false);
  const [eliminando, setEliminando] = useState(false);

  async function confirmar() {
    setEliminando(true);
    const eliminado = await onEliminar();
    setEliminando(false);
    if (eliminado) setConfirmando(false);
  }

  return (
    <>
      <button type="button" className="enlace" aria-label={`Editar ${nombre}`} onClick={onEditar}>
        Editar
      </button>
      <button type="button" className="enlace peligro" aria-label={`Eliminar ${nombre}`} onClick={() => setConfirmando(true)}>
        Eliminar
      </button>
      <Modal
        abierto={confirmando}
        titulo="Eliminar comentario"
        onCerrar={() => !eliminando && setConfirmando(false)}
        pie={
          <>
            <button type="button" className="secundario" disabled={eliminando} onClick={() => setConfirmando(false)}>
              Cancelar
            </button>
            <button type="button" className="peligro" disabled={eliminando} aria-busy={eliminando || undefined} onClick={confirmar}>
              Eliminar
            </button>
          </>
        }
      >
        <p>¿Eliminar este comentario? Si tiene respuestas, quedará como 'Comentario eliminado'. Esta acción no se puede deshacer.</p>
      </Modal>
    </>
  );
}

/** Opens and closes the reply box under the comment. */
export function BotonResponder({ abierto, activo, onAlternar }: { abierto: boolean; activo: boolean; onAlternar: () => void }) {
  return (
    <button type="button" className="enlace" aria-expanded={abierto} disabled={!activo} onClick={onAlternar}>
      <svg className="icono" aria-hidden="true" focusable="false">
        <use href="#i-responder" />
      </svg>
      Responder
    </button>
  );
}

const respuestas = (n: number) => (n === 1 ? '1 respuesta' : `${n} respuestas`);

interface BotonRespuestasProps {
  cantidad: number;
  abiertas: boolean;
  /** The id of the list it shows and hides. */
  lista: string;
  disabled?: boolean;
  onAlternar: () => void;
}

/** Shows and hides the replies; nothing when there are none. */
export function BotonRespuestas({ cantidad, abiertas, lista, disabled, onAlternar }: BotonRespuestasProps) {
  if (cantidad === 0) return null;
  return (
    <button type="button" className="enlace" aria-expanded={abiertas} aria-controls={lista} disabled={disabled} onClick={onAlternar}>
      {abiertas ? `Ocultar ${respuestas(cantidad)}` : `Ver ${respuestas(cantidad)}`}
    </button>
  );
}

/**
 * What every comment thread draws the same way (docs/SPEC.md sections 3 and 4), for capsules,
 * materials and manuals as for the forum: the author line and text, the Responder toggle, the
 * 'Ver N respuestas' / 'Ocultar N respuestas' toggle, Editar/Eliminar on one's own and the
 * placeholders of deleted and hidden comments (issue 17).
 */
import '../../styles/denuncias.css';
import { useState } from 'react';
import type { components } from '../../lib/api/schema';
import { formatearFecha, nombreCorto } from '../../lib/format';
import { puedeEditar } from '../../lib/permisos';
import type { UsuarioSesion } from '../../lib/stores/session';
import { AvatarAutor } from './AvatarAutor';
import { Confirmacion } from './Confirmacion';

interface Publicado {
  contenido: string;
  fecha_creacion: string;
  id_usuario: components['schemas']['Autor'];
  editado?: boolean;
  eliminado?: boolean;
  oculto?: boolean;
}

/** What a placeholder of a deleted comment with replies shows, without author or avatar. */
export const COMENTARIO_ELIMINADO = 'Comentario eliminado';
/** What others see of a hidden comment kept for its replies (the server sends it without text). */
export const COMENTARIO_OCULTO = 'Comentario oculto por moderación';

/** A hidden comment as others get it: a placeholder, without its text. */
const marcadorOculto = (c: Publicado) => c.oculto === true && !c.eliminado && c.contenido === '';

/** A placeholder (deleted, or hidden from this person) stands for a comment but is none: not counted, no actions. */
export const esMarcador = (c: Publicado): boolean => c.eliminado === true || marcadorOculto(c);

/** The aria-label of a comment's article. */
export function etiquetaComentario(c: Publicado, nombre: string): string {
  if (c.eliminado) return COMENTARIO_ELIMINADO;
  return marcadorOculto(c) ? 'Comentario oculto' : `Comentario de ${nombre}`;
}

interface TextoComentarioProps {
  comentario: Publicado;
  /** The name leads to the author's profile. */
  enlazado?: boolean;
  /** The person reading, to tell its author apart in the notice of a hidden comment. */
  yo?: number | undefined;
}

/**
 * Avatar, name and date ('(editado)' after a change), then the text; a deleted comment kept for
 * its replies shows only 'Comentario eliminado', a hidden one 'Comentario oculto por moderación'.
 * Its author and admins still get a hidden comment's text, under a notice saying who else sees it.
 */
export function TextoComentario({ comentario, enlazado = false, yo }: TextoComentarioProps) {
  if (comentario.eliminado) return <p className="comentario-eliminado">{COMENTARIO_ELIMINADO}</p>;
  if (marcadorOculto(comentario)) return <p className="comentario-oculto">{COMENTARIO_OCULTO}</p>;
  const autor = comentario.id_usuario;
  const nombre = nombreCorto(autor);
  return (
    <>
      {comentario.oculto && (
        <p className="aviso-oculto">
          {yo === autor.id ? 'Oculto por moderación: solo tú y los administradores lo ven.' : 'Oculto por moderación.'}
        </p>
      )}
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
  usuario !== undefined && !esMarcador(comentario) && puedeEditar(usuario, comentario.id_usuario.id);

/**
 * Whether the comment shows 'Denunciar' to the person reading (`yo`, known to the server too, so
 * the button is there from the first paint): anyone's but their own, and not what moderation
 * already hid.
 */
export const puedeDenunciar = (yo: number | undefined, comentario: Publicado): boolean =>
  yo !== undefined && !esMarcador(comentario) && !comentario.oculto && yo !== comentario.id_usuario.id;

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
      <Confirmacion
        abierto={confirmando}
        titulo="Eliminar comentario"
        ocupado={eliminando}
        onCancelar={() => setConfirmando(false)}
        onConfirmar={confirmar}
      >
        <p>¿Eliminar este comentario? Si tiene respuestas, quedará como 'Comentario eliminado'. Esta acción no se puede deshacer.</p>
      </Confirmacion>
    </>
  );
}

/** Opens and closes the reply box under the comment. */
export function BotonResponder({ abierto, activo, onAlternar }: { abierto: boolean; activo: boolean; onAlternar: () => void }) {
  return (
    <button type="button" className="enlace" aria-expanded={abierto} disabled={!activo} onClick={onAlternar}>
      <svg className="icono" aria-hidden="true">
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

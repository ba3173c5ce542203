/**
 * What every comment thread draws the same way (SPEC.md sections 3 and 4), for capsules,
 * materials and manuals as for the forum: the author line and text, the Responder toggle and the
 * 'Ver N respuestas' / 'Ocultar N respuestas' toggle.
 */
import type { components } from '../../lib/api/schema';
import { formatearFecha, nombreCorto } from '../../lib/format';
import { AvatarAutor } from './AvatarAutor';

interface Publicado {
  contenido: string;
  fecha_creacion: string;
  id_usuario: components['schemas']['Autor'];
}

/** Avatar, name and date, then the text. `enlazado`: the name leads to the author's profile. */
export function TextoComentario({ comentario, enlazado = false }: { comentario: Publicado; enlazado?: boolean }) {
  const autor = comentario.id_usuario;
  const nombre = nombreCorto(autor);
  return (
    <>
      <header>
        <AvatarAutor id={autor.id} nombre={nombre} foto={autor.foto_perfil} />
        <div>
          {enlazado ? <a href={`/perfil/${autor.id}`}>{nombre}</a> : <strong>{nombre}</strong>}
          <span>{formatearFecha(comentario.fecha_creacion)}</span>
        </div>
      </header>
      <p>{comentario.contenido}</p>
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

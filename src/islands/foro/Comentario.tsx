/**
 * One forum comment and, below it, its replies to any depth (SPEC.md sections 3 and 4): author,
 * date, text, its two reactions, a reply box that toggles, and the replies shown or hidden
 * ('Ver N respuestas' / 'Ocultar N respuestas'). A new reply opens the list.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { formatearFecha } from '../../lib/format';
import { nombreCorto } from '../../lib/format/index';
import { AvatarAutor } from '../comun/AvatarAutor';
import { CajaComentario } from '../comun/CajaComentario';
import type { ComentarioForo } from './api';
import { BotonReaccion } from './BotonReaccion';
import { type IdReaccionComentario, REACCIONES_COMENTARIO } from './reacciones';

export interface HiloProps {
  /** The person's own reactions per comment id. */
  mias: ReadonlyMap<number, ReadonlySet<number>>;
  /** `${id}:${idLike}` of the reactions whose call is out. */
  ocupadas: ReadonlySet<string>;
  hidratado: boolean;
  /** The comment to move focus to (the one just published). */
  enfocar: number | null;
  onReaccionar: (id: number, idLike: IdReaccionComentario) => void;
  onResponder: (padre: number, texto: string) => Promise<boolean>;
}

const respuestas = (n: number) => (n === 1 ? '1 respuesta' : `${n} respuestas`);

export function Comentario({ comentario, ...hilo }: HiloProps & { comentario: ComentarioForo }) {
  const { mias, ocupadas, hidratado, enfocar, onReaccionar, onResponder } = hilo;
  const [respondiendo, setRespondiendo] = useState(false);
  const [mostrarRespuestas, setMostrarRespuestas] = useState(true);
  const ref = useRef<HTMLElement>(null);
  const idRespuestas = useId();
  const autor = comentario.id_usuario;
  const nombre = nombreCorto(autor);
  const cantidad = comentario.respuestas.length;

  useEffect(() => {
    if (enfocar === comentario.id) ref.current?.focus();
  }, [enfocar, comentario.id]);

  async function responder(texto: string) {
    const publicado = await onResponder(comentario.id, texto);
    if (publicado) {
      setRespondiendo(false);
      setMostrarRespuestas(true);
    }
    return publicado;
  }

  return (
    <li>
      <article className="comentario" ref={ref} tabIndex={-1} aria-label={`Comentario de ${nombre}`}>
        <header>
          <AvatarAutor id={autor.id} nombre={nombre} foto={autor.foto_perfil} />
          <div>
            <strong>{nombre}</strong>
            <span>{formatearFecha(comentario.fecha_creacion)}</span>
          </div>
        </header>
        <p>{comentario.contenido}</p>
        <div className="comentario-acciones">
          {REACCIONES_COMENTARIO.map((r) => (
            <BotonReaccion
              key={r.id}
              chica
              nombre={r.nombre}
              icono={r.icono}
              cantidad={comentario[r.campo]}
              activa={mias.get(comentario.id)?.has(r.id) ?? false}
              ocupada={ocupadas.has(`${comentario.id}:${r.id}`)}
              hidratado={hidratado}
              onAlternar={() => onReaccionar(comentario.id, r.id)}
            />
          ))}
          <button
            type="button"
            className="enlace"
            aria-expanded={respondiendo}
            disabled={!hidratado}
            onClick={() => setRespondiendo(!respondiendo)}
          >
            <svg className="icono" aria-hidden="true" focusable="false">
              <use href="#i-responder" />
            </svg>
            Responder
          </button>
          {cantidad > 0 && (
            <button
              type="button"
              className="enlace"
              aria-expanded={mostrarRespuestas}
              aria-controls={idRespuestas}
              disabled={!hidratado}
              onClick={() => setMostrarRespuestas(!mostrarRespuestas)}
            >
              {mostrarRespuestas ? `Ocultar ${respuestas(cantidad)}` : `Ver ${respuestas(cantidad)}`}
            </button>
          )}
        </div>
        {respondiendo && <CajaComentario etiqueta={`Responder a ${nombre}`} onEnviar={responder} hidratado={hidratado} autoFocus />}
      </article>
      {cantidad > 0 && (
        <ol className="hilo" id={idRespuestas} hidden={!mostrarRespuestas}>
          {comentario.respuestas.map((r) => (
            <Comentario key={r.id} comentario={r} {...hilo} />
          ))}
        </ol>
      )}
    </li>
  );
}

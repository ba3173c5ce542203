/**
 * One forum comment and, below it, its replies to any depth (docs/SPEC.md sections 3 and 4): author,
 * date, text, its two reactions, a reply box that toggles, and the replies shown or hidden
 * ('Ver N respuestas' / 'Ocultar N respuestas'). A new reply opens the list.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { nombreCorto } from '../../lib/format';
import { CajaComentario } from '../comun/CajaComentario';
import {
  AccionesPropias,
  BotonResponder,
  BotonRespuestas,
  esMarcador,
  etiquetaComentario,
  puedeDenunciar,
  TextoComentario,
} from '../comun/PartesComentario';
import { BotonDenunciar } from '../moderacion/BotonDenunciar';
import type { ComentarioForo } from './api';
import { BotonReaccion } from './BotonReaccion';
import { type IdReaccionComentario, REACCIONES_COMENTARIO } from './reacciones';

interface HiloProps {
  /** The person reading (from the page, so the server draws 'Denunciar' where it will stay). */
  yo: number;
  /** The person's own reactions per comment id. */
  mias: ReadonlyMap<number, ReadonlySet<number>>;
  /** `${id}:${idLike}` of the reactions whose call is out. */
  ocupadas: ReadonlySet<string>;
  hidratado: boolean;
  /** Live and signed in: reactions and replies can be sent. */
  activo: boolean;
  /** The comment to move focus to (the one just published). */
  enfocar: number | null;
  onReaccionar: (id: number, idLike: IdReaccionComentario) => void;
  onResponder: (padre: number, texto: string) => Promise<boolean>;
  /** Whether the person may edit and delete this comment (its author or an admin). */
  puede: (c: ComentarioForo) => boolean;
  onEditar: (id: number, texto: string) => Promise<boolean>;
  onEliminar: (id: number) => Promise<boolean>;
}

export function Comentario({ comentario, ...hilo }: HiloProps & { comentario: ComentarioForo }) {
  const { yo, mias, ocupadas, hidratado, activo, enfocar, onReaccionar, onResponder, puede, onEditar, onEliminar } = hilo;
  const [respondiendo, setRespondiendo] = useState(false);
  const [editando, setEditando] = useState(false);
  const [mostrarRespuestas, setMostrarRespuestas] = useState(true);
  const ref = useRef<HTMLElement>(null);
  // React's ids start with '_': an id should start with a letter.
  const idRespuestas = `respuestas${useId()}`;
  const nombre = nombreCorto(comentario.id_usuario);
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
      <article className="comentario" ref={ref} tabIndex={-1} aria-label={etiquetaComentario(comentario, nombre)}>
        {editando ? (
          <CajaComentario
            etiqueta={`Editar comentario de ${nombre}`}
            inicial={comentario.contenido}
            activo={activo}
            autoFocus
            onCancelar={() => setEditando(false)}
            onEnviar={async (texto) => {
              const ok = await onEditar(comentario.id, texto);
              if (ok) setEditando(false);
              return ok;
            }}
          />
        ) : (
          <TextoComentario comentario={comentario} yo={yo} />
        )}
        <div className="comentario-acciones" hidden={editando}>
          {!esMarcador(comentario) &&
            REACCIONES_COMENTARIO.map((r) => (
              <BotonReaccion
                key={r.id}
                chica
                nombre={r.nombre}
                icono={r.icono}
                cantidad={comentario[r.campo]}
                activa={mias.get(comentario.id)?.has(r.id) ?? false}
                ocupada={ocupadas.has(`${comentario.id}:${r.id}`)}
                activo={activo}
                onAlternar={() => onReaccionar(comentario.id, r.id)}
              />
            ))}
          {!esMarcador(comentario) && (
            <BotonResponder abierto={respondiendo} activo={activo} onAlternar={() => setRespondiendo(!respondiendo)} />
          )}
          <BotonRespuestas
            cantidad={cantidad}
            abiertas={mostrarRespuestas}
            lista={idRespuestas}
            disabled={!hidratado}
            onAlternar={() => setMostrarRespuestas(!mostrarRespuestas)}
          />
          {puede(comentario) && (
            <AccionesPropias
              nombre={`comentario de ${nombre}`}
              onEditar={() => setEditando(true)}
              onEliminar={() => onEliminar(comentario.id)}
            />
          )}
          {puedeDenunciar(yo, comentario) && <BotonDenunciar tipo="comentario_foro" id={comentario.id} activo={activo} />}
        </div>
        {respondiendo && <CajaComentario etiqueta={`Responder a ${nombre}`} onEnviar={responder} activo={activo} autoFocus />}
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

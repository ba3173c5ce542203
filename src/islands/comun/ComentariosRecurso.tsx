/**
 * The comments of a capsule, material or manual (SPEC.md sections 3 and 4): top-level comments,
 * newest first, each with its replies shown or hidden ('Ver N respuestas' / 'Ocultar N
 * respuestas') and a reply box that opens under it. A new comment or reply appears at the top
 * (and opens its list). A failed post is silent (section 8) but keeps the text written.
 */

import { useEffect, useState } from 'react';
import { formatearFecha } from '../../lib/format';
import { nombreCorto } from '../../lib/format/index';
import { AvatarAutor } from './AvatarAutor';
import { CajaComentario } from './CajaComentario';
import { useHidratado } from './Campo';
import { type ComentarioRecurso, type Comentarios, comentar, comentarios, type TipoRecurso } from './recursos';

export interface ComentariosRecursoProps {
  tipo: TipoRecurso;
  id: number;
  idUsuario: number;
}

const respuestas = (n: number) => (n === 1 ? '1 respuesta' : `${n} respuestas`);
const nombreDe = (c: ComentarioRecurso) => nombreCorto(c.id_usuario);

function Texto({ comentario }: { comentario: ComentarioRecurso }) {
  const autor = comentario.id_usuario;
  const nombre = nombreDe(comentario);
  return (
    <>
      <header>
        <AvatarAutor id={autor.id} nombre={nombre} foto={autor.foto_perfil} />
        <div>
          <a href={`/perfil/${autor.id}`}>{nombre}</a>
          <span>{formatearFecha(comentario.fecha_creacion)}</span>
        </div>
      </header>
      <p>{comentario.contenido}</p>
    </>
  );
}

interface HiloProps {
  comentario: ComentarioRecurso;
  hijos: ComentarioRecurso[];
  hidratado: boolean;
  onResponder: (padre: number, texto: string) => Promise<boolean>;
}

function Hilo({ comentario, hijos, hidratado, onResponder }: HiloProps) {
  const [respondiendo, setRespondiendo] = useState(false);
  const [abierto, setAbierto] = useState(false);
  const idLista = `respuestas-${comentario.id}`;

  async function responder(texto: string) {
    const publicado = await onResponder(comentario.id, texto);
    if (publicado) {
      setRespondiendo(false);
      setAbierto(true);
    }
    return publicado;
  }

  return (
    <li>
      <article className="comentario" aria-label={`Comentario de ${nombreDe(comentario)}`}>
        <Texto comentario={comentario} />
        <div className="comentario-acciones">
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
          {hijos.length > 0 && (
            <button type="button" className="enlace" aria-expanded={abierto} aria-controls={idLista} onClick={() => setAbierto(!abierto)}>
              {abierto ? `Ocultar ${respuestas(hijos.length)}` : `Ver ${respuestas(hijos.length)}`}
            </button>
          )}
        </div>
        {respondiendo && (
          <CajaComentario etiqueta={`Responder a ${nombreDe(comentario)}`} onEnviar={responder} hidratado={hidratado} autoFocus />
        )}
      </article>
      {hijos.length > 0 && (
        <ol className="hilo" id={idLista} hidden={!abierto}>
          {hijos.map((h) => (
            <li key={h.id}>
              <article className="comentario" aria-label={`Respuesta de ${nombreDe(h)}`}>
                <Texto comentario={h} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

export default function ComentariosRecurso({ tipo, id, idUsuario }: ComentariosRecursoProps) {
  const hidratado = useHidratado();
  const [datos, setDatos] = useState<Comentarios | null>(null);
  const [fallida, setFallida] = useState(false);

  async function cargar() {
    setFallida(false);
    const resultado = await comentarios(tipo, id);
    if (resultado.ok) setDatos(resultado.data);
    else setFallida(true);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per resource
  useEffect(() => {
    void cargar();
  }, [tipo, id]);

  async function publicar(texto: string, padre: number | null): Promise<boolean> {
    const resultado = await comentar(tipo, id, idUsuario, texto, padre);
    if (!resultado.ok) return false;
    const nuevo = resultado.data;
    setDatos((d) =>
      d === null
        ? d
        : padre === null
          ? { ...d, comentarios_base: [nuevo, ...d.comentarios_base] }
          : { ...d, comentarios_hijos: [nuevo, ...d.comentarios_hijos] },
    );
    return true;
  }

  const total = datos ? datos.comentarios_base.length + datos.comentarios_hijos.length : null;

  return (
    <section className="comentarios" aria-labelledby="titulo-comentarios">
      <h2 id="titulo-comentarios">Comentarios{total !== null && <span className="conteo-comentarios"> ({total})</span>}</h2>
      <CajaComentario
        etiqueta="Escribe un comentario"
        onEnviar={(texto) => publicar(texto, null)}
        hidratado={hidratado && datos !== null}
      />
      {datos === null && !fallida && <p aria-busy="true">Cargando comentarios…</p>}
      {fallida && (
        <p className="aviso">
          No se pudieron cargar los comentarios.{' '}
          <button type="button" className="enlace" onClick={cargar}>
            Reintentar
          </button>
        </p>
      )}
      {datos && datos.comentarios_base.length === 0 && <p className="sin-comentarios">Aún no hay comentarios. ¡Escribe el primero!</p>}
      {datos && datos.comentarios_base.length > 0 && (
        <ol className="hilo">
          {datos.comentarios_base.map((c) => (
            <Hilo
              key={c.id}
              comentario={c}
              hijos={datos.comentarios_hijos.filter((h) => h.id_respuesta_comentario === c.id)}
              hidratado={hidratado}
              onResponder={(padre, texto) => publicar(texto, padre)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The comments of a capsule, material or manual (docs/SPEC.md sections 3 and 4): top-level comments,
 * newest first, each with its replies shown or hidden ('Ver N respuestas' / 'Ocultar N
 * respuestas') and a reply box that opens under it. A new comment or reply appears at the top
 * (and opens its list). A failed post is silent (section 8) but keeps the text written.
 */

import { type ReactNode, useEffect, useState } from 'react';
import { nombreCorto, plural } from '../../lib/format';
import { notificar } from '../../lib/stores/notifications';
import { BotonDenunciar } from '../moderacion/BotonDenunciar';
import { CajaComentario } from './CajaComentario';
import {
  AccionesPropias,
  BotonResponder,
  BotonRespuestas,
  esMarcador,
  etiquetaComentario,
  puedeCambiar,
  puedeDenunciar,
  TextoComentario,
} from './PartesComentario';
import {
  type ComentarioRecurso,
  type Comentarios,
  comentar,
  comentarios,
  editarComentario,
  eliminarComentario,
  type TipoRecurso,
} from './recursos';
import { useUsuarioActivo } from './usuario';

export interface ComentariosRecursoProps {
  tipo: TipoRecurso;
  id: number;
}

const nombreDe = (c: ComentarioRecurso) => nombreCorto(c.id_usuario);

/** What the thread hands down to each comment: who reads, edits and deletes of one's own, reports of others'. */
interface Cambios {
  /** The person reading, once the island is live and signed in. */
  yo: number | undefined;
  /** The kind of report a comment of this thread is. */
  denuncia: `comentario_${TipoRecurso}`;
  puede: (c: ComentarioRecurso) => boolean;
  onEditar: (c: ComentarioRecurso, texto: string) => Promise<boolean>;
  onEliminar: (c: ComentarioRecurso) => Promise<boolean>;
}

/** A comment, or its editing box in its place while its author edits it. */
function Cuerpo({
  comentario,
  etiqueta,
  cambios,
  children,
}: {
  comentario: ComentarioRecurso;
  etiqueta: string;
  cambios: Cambios;
  children?: ReactNode;
}) {
  const [editando, setEditando] = useState(false);
  if (editando)
    return (
      <CajaComentario
        etiqueta={`Editar ${etiqueta}`}
        inicial={comentario.contenido}
        activo
        autoFocus
        onCancelar={() => setEditando(false)}
        onEnviar={async (texto) => {
          const ok = await cambios.onEditar(comentario, texto);
          if (ok) setEditando(false);
          return ok;
        }}
      />
    );
  const denunciable = puedeDenunciar(cambios.yo, comentario);
  return (
    <>
      <TextoComentario comentario={comentario} enlazado yo={cambios.yo} />
      {(children || cambios.puede(comentario) || denunciable) && (
        <div className="comentario-acciones">
          {children}
          {cambios.puede(comentario) && (
            <AccionesPropias nombre={etiqueta} onEditar={() => setEditando(true)} onEliminar={() => cambios.onEliminar(comentario)} />
          )}
          {denunciable && <BotonDenunciar tipo={cambios.denuncia} id={comentario.id} activo />}
        </div>
      )}
    </>
  );
}

interface HiloProps {
  comentario: ComentarioRecurso;
  hijos: ComentarioRecurso[];
  /** Live and signed in: replies can be written. */
  activo: boolean;
  onResponder: (padre: number, texto: string) => Promise<boolean>;
  cambios: Cambios;
}

function Hilo({ comentario, hijos, activo, onResponder, cambios }: HiloProps) {
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
      <article className="comentario" aria-label={etiquetaComentario(comentario, nombreDe(comentario))}>
        <Cuerpo comentario={comentario} etiqueta={`comentario de ${nombreDe(comentario)}`} cambios={cambios}>
          {!esMarcador(comentario) && (
            <BotonResponder abierto={respondiendo} activo={activo} onAlternar={() => setRespondiendo(!respondiendo)} />
          )}
          <BotonRespuestas cantidad={hijos.length} abiertas={abierto} lista={idLista} onAlternar={() => setAbierto(!abierto)} />
        </Cuerpo>
        {respondiendo && <CajaComentario etiqueta={`Responder a ${nombreDe(comentario)}`} onEnviar={responder} activo={activo} autoFocus />}
      </article>
      {hijos.length > 0 && (
        <ol className="hilo" id={idLista} hidden={!abierto}>
          {hijos.map((h) => (
            <li key={h.id}>
              <article className="comentario" aria-label={esMarcador(h) ? etiquetaComentario(h, '') : `Respuesta de ${nombreDe(h)}`}>
                <Cuerpo comentario={h} etiqueta={`respuesta de ${nombreDe(h)}`} cambios={cambios} />
              </article>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

/** The load: under way, failed (with a retry), or the comments. */
type Carga = { estado: 'cargando' } | { estado: 'fallida' } | { estado: 'lista'; datos: Comentarios };

/** The replies of each top-level comment, in the order they come. */
function respuestasPorPadre(hijos: ComentarioRecurso[]): Map<number, ComentarioRecurso[]> {
  const porPadre = new Map<number, ComentarioRecurso[]>();
  for (const h of hijos) {
    if (h.id_respuesta_comentario === null) continue;
    const lista = porPadre.get(h.id_respuesta_comentario);
    if (lista) lista.push(h);
    else porPadre.set(h.id_respuesta_comentario, [h]);
  }
  return porPadre;
}

export default function ComentariosRecurso({ tipo, id }: ComentariosRecursoProps) {
  const usuario = useUsuarioActivo();
  const [carga, setCarga] = useState<Carga>({ estado: 'cargando' });

  async function cargar() {
    setCarga({ estado: 'cargando' });
    const resultado = await comentarios(tipo, id);
    setCarga(resultado.ok ? { estado: 'lista', datos: resultado.data } : { estado: 'fallida' });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once per resource
  useEffect(() => {
    void cargar();
  }, [tipo, id]);

  const [masCargando, setMasCargando] = useState(false);

  /** The next page of top-level comments (issue 36), after the last one shown. */
  async function cargarMas() {
    if (carga.estado !== 'lista') return;
    const ultimo = carga.datos.comentarios_base.at(-1);
    setMasCargando(true);
    const resultado = await comentarios(tipo, id, ultimo?.id);
    setMasCargando(false);
    if (!resultado.ok) {
      notificar('No se pudieron cargar más comentarios', 'error');
      return;
    }
    const mas = resultado.data;
    setCarga((c) => {
      if (c.estado !== 'lista') return c;
      const vistos = new Set([...c.datos.comentarios_base, ...c.datos.comentarios_hijos].map((x) => x.id));
      const nuevos = (lista: ComentarioRecurso[]) => lista.filter((x) => !vistos.has(x.id));
      return {
        estado: 'lista',
        datos: {
          ...mas,
          comentarios_base: [...c.datos.comentarios_base, ...nuevos(mas.comentarios_base)],
          comentarios_hijos: [...c.datos.comentarios_hijos, ...nuevos(mas.comentarios_hijos)],
        },
      };
    });
  }

  async function publicar(texto: string, padre: number | null): Promise<boolean> {
    if (!usuario) return false;
    const resultado = await comentar(tipo, id, usuario.id, texto, padre);
    if (!resultado.ok) return false;
    const nuevo = resultado.data;
    setCarga((c) => {
      if (c.estado !== 'lista') return c;
      const d = c.datos;
      const contado = { ...d, n_comentarios: d.n_comentarios + 1 };
      const datos =
        padre === null
          ? { ...contado, comentarios_base: [nuevo, ...d.comentarios_base] }
          : { ...contado, comentarios_hijos: [nuevo, ...d.comentarios_hijos] };
      return { estado: 'lista', datos };
    });
    return true;
  }

  const cambios: Cambios = {
    yo: usuario?.id,
    denuncia: `comentario_${tipo}`,
    puede: (c) => puedeCambiar(usuario, c),
    async onEditar(c, texto) {
      const resultado = await editarComentario(tipo, c.id, texto);
      if (!resultado.ok) {
        notificar('No se pudo editar el comentario', 'error');
        return false;
      }
      const editado = resultado.data;
      const cambiar = (lista: ComentarioRecurso[]) => lista.map((x) => (x.id === editado.id ? editado : x));
      setCarga((actual) =>
        actual.estado === 'lista'
          ? {
              estado: 'lista',
              datos: {
                ...actual.datos,
                comentarios_base: cambiar(actual.datos.comentarios_base),
                comentarios_hijos: cambiar(actual.datos.comentarios_hijos),
              },
            }
          : actual,
      );
      return true;
    },
    async onEliminar(c) {
      if (!(await eliminarComentario(tipo, c.id))) {
        notificar('No se pudo eliminar el comentario', 'error');
        return false;
      }
      // The server decides between a placeholder and a real delete (and its emptied parent).
      const resultado = await comentarios(tipo, id);
      if (resultado.ok) setCarga({ estado: 'lista', datos: resultado.data });
      return true;
    },
  };

  const datos = carga.estado === 'lista' ? carga.datos : null;
  // Placeholders of deleted and hidden comments are not comments.
  const vivos = (lista: ComentarioRecurso[]) => lista.filter((c) => !esMarcador(c)).length;
  // While older pages are not loaded, the server's count (and what was added here since).
  const total = datos ? (datos.hay_mas ? datos.n_comentarios : vivos(datos.comentarios_base) + vivos(datos.comentarios_hijos)) : null;
  const hijosDe = respuestasPorPadre(datos?.comentarios_hijos ?? []);
  // The page's figures above (CifrasContenido) count the same comments: a new one shows there at once.
  useEffect(() => {
    const cifra = document.getElementById('cifra-comentarios');
    if (cifra && total !== null) cifra.textContent = plural(total, 'comentario', 'comentarios');
  }, [total]);

  return (
    <section className="comentarios" aria-labelledby="titulo-comentarios">
      <h2 id="titulo-comentarios">Comentarios{total !== null && <span className="conteo-comentarios"> ({total})</span>}</h2>
      <CajaComentario
        etiqueta="Escribe un comentario"
        onEnviar={(texto) => publicar(texto, null)}
        activo={usuario !== undefined && datos !== null}
      />
      {carga.estado === 'cargando' && <p aria-busy="true">Cargando comentarios…</p>}
      {carga.estado === 'fallida' && (
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
              hijos={hijosDe.get(c.id) ?? []}
              activo={usuario !== undefined}
              onResponder={(padre, texto) => publicar(texto, padre)}
              cambios={cambios}
            />
          ))}
        </ol>
      )}
      {datos?.hay_mas && (
        <button type="button" className="secondary ver-mas-comentarios" onClick={cargarMas} aria-busy={masCargando} disabled={masCargando}>
          Ver más comentarios
        </button>
      )}
    </section>
  );
}

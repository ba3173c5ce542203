/**
 * A conversation's comments (docs/SPEC.md sections 2, 4 and 8): 'Añadir comentario', then the thread
 * nested to any depth. After a comment or reply is published the thread is loaded again from the
 * server (others may have written meanwhile) and focus moves to the new comment. A failed post is
 * silent, as SPEC says, except the posting limit, which tells the person when to come back.
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { CajaComentario } from '../comun/CajaComentario';
import { useHidratado } from '../comun/Campo';
import { esMarcador, puedeCambiar } from '../comun/PartesComentario';
import { useUsuarioActivo } from '../comun/usuario';
import type { ComentarioForo } from './api';
import { cargarComentarios, comentar, editarComentario, eliminarComentario, reaccionarComentario } from './api-hilo';
import { Comentario } from './Comentario';
import type { IdReaccionComentario } from './reacciones';

export interface ComentariosForoProps {
  /** The signed-in person reading: the server draws the comments as they will stay once live. */
  idUsuario: number;
  idConversacion: number;
  idCategoria: number;
  comentarios: ComentarioForo[];
  /** The signed-in person's reactions, by comment id. */
  misReacciones: Record<number, number[]>;
}

/** Placeholders of deleted and hidden comments are not comments. */
const contar = (nodos: ComentarioForo[]): number => nodos.reduce((n, c) => n + (esMarcador(c) ? 0 : 1) + contar(c.respuestas), 0);

function reemplazar(nodos: ComentarioForo[], editado: ComentarioForo): ComentarioForo[] {
  return nodos.map((n) =>
    n.id === editado.id ? { ...editado, respuestas: n.respuestas } : { ...n, respuestas: reemplazar(n.respuestas, editado) },
  );
}

function insertar(nodos: ComentarioForo[], nuevo: ComentarioForo, padre: number | null): ComentarioForo[] {
  if (padre === null) return [...nodos, nuevo];
  return nodos.map((n) =>
    n.id === padre ? { ...n, respuestas: [...n.respuestas, nuevo] } : { ...n, respuestas: insertar(n.respuestas, nuevo, padre) },
  );
}

function conCantidad(nodos: ComentarioForo[], id: number, campo: 'n_me_gusta' | 'n_me_interesa', valor: number): ComentarioForo[] {
  return nodos.map((n) =>
    n.id === id
      ? { ...n, [campo]: valor }
      : n.respuestas.length > 0
        ? { ...n, respuestas: conCantidad(n.respuestas, id, campo, valor) }
        : n,
  );
}

export default function ComentariosForo({ idUsuario, idConversacion, idCategoria, comentarios, misReacciones }: ComentariosForoProps) {
  const hidratado = useHidratado();
  const usuario = useUsuarioActivo();
  const activo = usuario !== undefined;
  const [arbol, setArbol] = useState(comentarios);
  const [mias, setMias] = useState<ReadonlyMap<number, ReadonlySet<number>>>(
    () => new Map(Object.entries(misReacciones).map(([id, likes]) => [Number(id), new Set(likes)])),
  );
  const [ocupadas, setOcupadas] = useState<ReadonlySet<string>>(new Set());
  const [enfocar, setEnfocar] = useState<number | null>(null);

  async function publicar(texto: string, padre: number | null): Promise<boolean> {
    const resultado = await comentar(idConversacion, idCategoria, texto, padre);
    if (!resultado.ok) {
      if (resultado.status === 429 && resultado.detail) notificar(resultado.detail, 'error');
      return false;
    }
    const nuevo = resultado.data;
    const recargado = await cargarComentarios(idConversacion);
    setArbol((actual) => recargado ?? insertar(actual, nuevo, padre));
    setEnfocar(nuevo.id);
    return true;
  }

  async function reaccionar(id: number, idLike: IdReaccionComentario) {
    const clave = `${id}:${idLike}`;
    const quitar = mias.get(id)?.has(idLike) ?? false;
    setOcupadas((o) => new Set(o).add(clave));
    const contador = await reaccionarComentario(id, idLike, quitar);
    setOcupadas((o) => {
      const resto = new Set(o);
      resto.delete(clave);
      return resto;
    });
    if (contador === null) return;
    setArbol((actual) => conCantidad(actual, id, idLike === 1 ? 'n_me_gusta' : 'n_me_interesa', contador));
    setMias((actual) => {
      const siguiente = new Map(actual);
      const propias = new Set(actual.get(id));
      if (quitar) propias.delete(idLike);
      else propias.add(idLike);
      siguiente.set(id, propias);
      return siguiente;
    });
  }

  async function editar(id: number, texto: string): Promise<boolean> {
    const resultado = await editarComentario(id, texto);
    if (!resultado.ok) {
      notificar('No se pudo editar el comentario', 'error');
      return false;
    }
    setArbol((actual) => reemplazar(actual, resultado.data));
    return true;
  }

  async function eliminar(id: number): Promise<boolean> {
    if (!(await eliminarComentario(id))) {
      notificar('No se pudo eliminar el comentario', 'error');
      return false;
    }
    // The server decides between a placeholder and a real delete (and the emptied placeholders above).
    const recargado = await cargarComentarios(idConversacion);
    if (recargado) setArbol(recargado);
    return true;
  }

  const total = contar(arbol);
  return (
    <>
      <h2 id="titulo-comentarios">{total === 1 ? '1 comentario' : `${total} comentarios`}</h2>
      <CajaComentario etiqueta="Añadir comentario" onEnviar={(texto) => publicar(texto, null)} activo={activo} />
      {arbol.length === 0 ? (
        <p className="meta">Aún no hay comentarios. Comparte el primero.</p>
      ) : (
        <ol className="hilo">
          {arbol.map((c) => (
            <Comentario
              key={c.id}
              comentario={c}
              yo={idUsuario}
              mias={mias}
              ocupadas={ocupadas}
              hidratado={hidratado}
              activo={activo}
              enfocar={enfocar}
              onReaccionar={(id, idLike) => void reaccionar(id, idLike)}
              onResponder={(padre, texto) => publicar(texto, padre)}
              puede={(x) => puedeCambiar(usuario, x)}
              onEditar={editar}
              onEliminar={eliminar}
            />
          ))}
        </ol>
      )}
    </>
  );
}

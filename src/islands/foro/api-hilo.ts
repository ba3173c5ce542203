/** The calls of a conversation's page: reactions, comments and the thread (docs/SPEC.md section 7). */
import { api } from '../../lib/api/client';
import { type ComentarioForo, fallo, type Resultado, sinRed } from './api';
import type { IdReaccion, IdReaccionComentario } from './reacciones';

/** Adds or removes one of the person's reactions; the counter is the server's. */
export async function reaccionarConversacion(id: number, idLike: IdReaccion, quitar: boolean): Promise<number | null> {
  try {
    const { data, response } = await api.POST('/api/foro/conversacion/like/', {
      body: { id_conversacion: id, id_like: idLike, action: quitar ? 'remove_like' : 'like' },
    });
    return response.status === 200 && data ? data.contador : null;
  } catch {
    return null;
  }
}

export async function reaccionarComentario(id: number, idLike: IdReaccionComentario, quitar: boolean): Promise<number | null> {
  try {
    const { data, response } = await api.POST('/api/foro/comentario/like/', {
      body: { id_comentario: id, id_like: idLike, action: quitar ? 'remove_like' : 'like' },
    });
    return response.status === 200 && data ? data.contador : null;
  } catch {
    return null;
  }
}

export async function comentar(
  idConversacion: number,
  idCategoria: number,
  contenido: string,
  padre: number | null,
): Promise<Resultado<ComentarioForo>> {
  try {
    const { data, error, response } = await api.POST('/api/foro/conversacion/comentar/', {
      body: { id_conversacion: idConversacion, id_categoria: idCategoria, contenido, comentario_padre: padre },
    });
    return response.status === 201 && data ? { ok: true, data } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

/** Rewrites one's own comment (an admin: anyone's); answers the edited comment. */
export async function editarComentario(id: number, contenido: string): Promise<Resultado<ComentarioForo>> {
  try {
    const { data, error, response } = await api.PUT('/api/foro/comentario/{id}/', { params: { path: { id } }, body: { contenido } });
    return response.status === 200 && data ? { ok: true, data } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

/** Deletes a comment (a placeholder stays while it has replies); true on success. */
export async function eliminarComentario(id: number): Promise<boolean> {
  try {
    const { response } = await api.DELETE('/api/foro/comentario/{id}/', { params: { path: { id } } });
    return response.ok;
  } catch {
    return false;
  }
}

export async function cargarComentarios(idConversacion: number): Promise<ComentarioForo[] | null> {
  try {
    const { data } = await api.GET('/api/foro/conversacion/{id}/respuestas/', { params: { path: { id: idConversacion } } });
    return data ?? null;
  } catch {
    return null;
  }
}

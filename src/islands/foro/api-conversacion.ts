/** Starting a conversation (docs/SPEC.md section 7). */
import { api } from '../../lib/api/client';
import { fallo, type Resultado, sinRed } from './api';

export async function crearConversacion(
  idUsuario: number,
  idCategoria: number,
  titulo: string,
  contenido: string,
): Promise<Resultado<{ id: number }>> {
  try {
    const { data, error, response } = await api.POST('/api/foro/conversacion/nueva/', {
      body: { id_usuario: idUsuario, id_categoria: idCategoria, titulo, contenido },
    });
    return response.status === 201 && data ? { ok: true, data } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

/** Rewrites one's own conversation (an admin: anyone's): title and Markdown content. */
export async function editarConversacion(id: number, titulo: string, contenido: string): Promise<Resultado<{ id: number }>> {
  try {
    const { data, error, response } = await api.PUT('/api/foro/conversacion/{id}/', {
      params: { path: { id } },
      body: { titulo, contenido },
    });
    return response.status === 200 && data ? { ok: true, data } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

/** Deletes a conversation with its comments; true on success. */
export async function eliminarConversacion(id: number): Promise<boolean> {
  try {
    const { response } = await api.DELETE('/api/foro/conversacion/{id}/', { params: { path: { id } } });
    return response.ok;
  } catch {
    return false;
  }
}

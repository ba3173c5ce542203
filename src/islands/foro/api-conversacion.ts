/** Starting a conversation (SPEC.md section 7). */
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

/**
 * Creating and editing a category, multipart (docs/SPEC.md section 7); the image itself goes first
 * with tus (issue 18) and the form names it by `id_subida`.
 */
import { api } from '../../lib/api/client';
import { multipart } from '../comun/multipart';
import { fallo, type Resultado, sinRed } from './api';

export interface DatosCategoria {
  nombre: string;
  descripcion: string;
  activa: boolean;
  /** The finished upload of the image (required to create, optional to edit). */
  id_subida?: string | undefined;
}

export async function crearCategoria(datos: DatosCategoria): Promise<Resultado<{ id: number }>> {
  try {
    const { data, error, response } = await api.POST('/api/foro/categorias/', {
      body: { nombre: datos.nombre, descripcion: datos.descripcion, activa: datos.activa, id_subida: datos.id_subida },
      bodySerializer: () => multipart(datos),
    });
    return response.status === 201 && data ? { ok: true, data } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

export async function editarCategoria(id: number, datos: DatosCategoria): Promise<Resultado<null>> {
  try {
    const { error, response } = await api.PUT('/api/foro/categorias/{id}/', {
      params: { path: { id } },
      body: { nombre: datos.nombre, descripcion: datos.descripcion, activa: datos.activa },
      bodySerializer: () => multipart(datos),
    });
    return response.status === 204 ? { ok: true, data: null } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

/** Creating and editing a category, multipart with the image (SPEC.md section 7). */
import { api } from '../../lib/api/client';
import { fallo, type Resultado, sinRed } from './api';

export interface DatosCategoria {
  nombre: string;
  descripcion: string;
  activa: boolean;
  archivo?: File | undefined;
}

/** The multipart body of the category forms ('true'/'false' for the Si/No select). */
function formulario(datos: DatosCategoria): FormData {
  const form = new FormData();
  form.set('nombre', datos.nombre);
  form.set('descripcion', datos.descripcion);
  form.set('activa', String(datos.activa));
  if (datos.archivo) form.set('archivo', datos.archivo, datos.archivo.name);
  return form;
}

export async function crearCategoria(datos: DatosCategoria): Promise<Resultado<{ id: number }>> {
  try {
    const { data, error, response } = await api.POST('/api/foro/categorias/', {
      body: { nombre: datos.nombre, descripcion: datos.descripcion, activa: datos.activa, archivo: datos.archivo?.name ?? '' },
      bodySerializer: () => formulario(datos),
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
      bodySerializer: () => formulario(datos),
    });
    return response.status === 204 ? { ok: true, data: null } : fallo(response, error);
  } catch {
    return sinRed;
  }
}

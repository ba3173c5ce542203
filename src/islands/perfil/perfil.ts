/**
 * The profile calls of docs/SPEC.md section 7 for the editing islands. Each answers what the island
 * needs (the new data, or the Spanish sentence the server gave) and never throws: a network
 * failure is `{ ok: false }`, and the island shows SPEC's message for it.
 */
import { api } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';
import { cambiarFotoPerfil } from '../../lib/stores/session';
import type { DatosPersonales } from '../../lib/validation/perfil';
import { multipart } from '../comun/multipart';
import { subirImagen } from '../comun/reanudable';

export type Usuario = components['schemas']['Usuario'];
export type PerfilDocente = components['schemas']['PerfilDocente'];
export type Error = components['schemas']['Error'];

export type Resultado<T> = { ok: true; data: T } | { ok: false; error?: Error | undefined };

async function intentar<T>(llamada: () => Promise<{ data?: T; error?: Error }>): Promise<Resultado<T>> {
  try {
    const { data, error } = await llamada();
    return data !== undefined ? { ok: true, data } : { ok: false, error };
  } catch {
    return { ok: false };
  }
}

export const actualizarDatos = (id: number, datos: DatosPersonales) =>
  intentar(() =>
    api.PUT('/api/usuarios/{id}/', {
      params: { path: { id } },
      body: { usuario: id, ...datos },
      // Multipart, the encoding the contract gives PUT /api/usuarios/{id}/.
      bodySerializer: multipart,
    }),
  );

/**
 * The cropped photo: its bytes go up with tus (issue 18), then a multipart form names the
 * finished upload by `id_subida`.
 */
export async function subirFoto(id: number, foto: Blob) {
  const nombre = foto.type === 'image/webp' ? 'foto.webp' : 'foto.jpg';
  const subida = await subirImagen(new File([foto], nombre, { type: foto.type }), 'foto');
  if (!subida.ok) return { ok: false as const };
  const form = new FormData();
  form.set('id_subida', subida.id);
  return intentar(() =>
    api.POST('/api/usuarios/{id}/foto/', { params: { path: { id } }, body: { id_subida: subida.id }, bodySerializer: () => form }),
  );
}

export const agregarEspecialidad = (id: number, especialidad: string) =>
  intentar(() => api.POST('/api/usuarios/profesores/{id}/especialidades/', { params: { path: { id } }, body: { especialidad } }));

export const quitarEspecialidad = (id: number, nombre: string) =>
  intentar(() => api.DELETE('/api/usuarios/profesores/{id}/especialidades/{nombre}/', { params: { path: { id, nombre } } }));

export const agregarArea = (id: number, area: string) =>
  intentar(() => api.POST('/api/usuarios/profesores/{id}/areas/', { params: { path: { id } }, body: { area } }));

export const quitarArea = (id: number, nombre: string) =>
  intentar(() => api.DELETE('/api/usuarios/profesores/{id}/areas/{nombre}/', { params: { path: { id, nombre } } }));

export const agregarNivel = (id: number, nivel: string) =>
  intentar(() => api.POST('/api/usuarios/profesores/{id}/niveles/', { params: { path: { id } }, body: { nivel } }));

export const quitarNivel = (id: number, nombre: string) =>
  intentar(() => api.DELETE('/api/usuarios/profesores/{id}/niveles/{nombre}/', { params: { path: { id, nombre } } }));

/** The add and remove calls of each list of a teacher's profile, by the PerfilDocente field they change. */
export const listas = {
  especialidad: { agregar: agregarEspecialidad, quitar: quitarEspecialidad },
  area: { agregar: agregarArea, quitar: quitarArea },
  nivel: { agregar: agregarNivel, quitar: quitarNivel },
} as const;

/** The new photo everywhere at once (the session store holds the signed-in user's photo). */
export const mostrarFotoNueva = cambiarFotoPerfil;

/**
 * The calls the three kinds of content share (docs/SPEC.md section 7): comments, likes and delete of a
 * capsule, a teacher material or a manual. One place knows each kind's paths and field names, so
 * the like button, the comment thread and the delete button serve all three unchanged.
 * Every call answers a result and never throws: a network failure is a failed call.
 */
import { api } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type TipoRecurso = 'capsula' | 'material' | 'manual';

type Autor = components['schemas']['Autor'];

/** A comment of any kind of content, as the thread shows it. */
export interface ComentarioRecurso {
  id: number;
  contenido: string;
  fecha_creacion: string;
  id_usuario: Autor;
  id_respuesta_comentario: number | null;
  editado: boolean;
  eliminado: boolean;
  oculto: boolean;
}

/** A page of a thread (issue 36): `hay_mas` when older top-level comments remain. */
export interface Comentarios {
  comentarios_base: ComentarioRecurso[];
  comentarios_hijos: ComentarioRecurso[];
  hay_mas: boolean;
  n_comentarios: number;
}

const fallo = { ok: false } as const;
type Resultado<T> = { ok: true; data: T } | typeof fallo;

async function intentar<T>(llamada: () => Promise<{ data?: T | undefined }>): Promise<Resultado<T>> {
  try {
    const { data } = await llamada();
    return data === undefined ? fallo : { ok: true, data };
  } catch {
    return fallo;
  }
}

/** The thread's first page, or the page after the top-level comment `antes`. */
export function comentarios(tipo: TipoRecurso, id: number, antes?: number): Promise<Resultado<Comentarios>> {
  const path = { params: { path: { id }, query: antes === undefined ? {} : { antes } } };
  return intentar<Comentarios>(() => {
    if (tipo === 'capsula') return api.GET('/api/capsulas/comentarios/{id}/', path);
    if (tipo === 'material') return api.GET('/api/bdocente/comentarios/{id}/', path);
    return api.GET('/api/manuales/comentarios/{id}/', path);
  });
}

/** Publishes a comment, or a reply when `padre` is the comment it answers. */
export function comentar(tipo: TipoRecurso, id: number, idUsuario: number, contenido: string, padre: number | null) {
  const base = { id_usuario: idUsuario, contenido, id_respuesta_comentario: padre };
  return intentar<ComentarioRecurso>(() => {
    if (tipo === 'capsula') return api.POST('/api/capsulas/comentarios/', { body: { ...base, id_capsula: id } });
    if (tipo === 'material')
      return api.POST('/api/bdocente/comentarios/', { body: { ...base, id_recurso: id, tipo_recurso: 'id_material_docente' } });
    return api.POST('/api/manuales/comentarios/', { body: { ...base, id_recurso: id, tipo_recurso: 'id_manual' } });
  });
}

/** Rewrites one's own comment (or, for an admin, anyone's); answers the edited comment. */
export function editarComentario(tipo: TipoRecurso, idComentario: number, contenido: string) {
  const peticion = { params: { path: { id: idComentario } }, body: { contenido } };
  return intentar<ComentarioRecurso>(() => {
    if (tipo === 'capsula') return api.PUT('/api/capsulas/comentarios/{id}/', peticion);
    if (tipo === 'material') return api.PUT('/api/bdocente/comentarios/{id}/', peticion);
    return api.PUT('/api/manuales/comentarios/{id}/', peticion);
  });
}

/** Deletes a comment (a placeholder stays while it has replies); true on success. */
export async function eliminarComentario(tipo: TipoRecurso, idComentario: number): Promise<boolean> {
  const path = { params: { path: { id: idComentario } } };
  try {
    const { response } =
      tipo === 'capsula'
        ? await api.DELETE('/api/capsulas/comentarios/{id}/', path)
        : tipo === 'material'
          ? await api.DELETE('/api/bdocente/comentarios/{id}/', path)
          : await api.DELETE('/api/manuales/comentarios/{id}/', path);
    return response.ok;
  } catch {
    return false;
  }
}

/** Likes (`add`) or unlikes; answers the content's likes after the change (only on 200). */
export function meGusta(tipo: TipoRecurso, id: number, idUsuario: number, add: boolean) {
  return intentar<components['schemas']['LikeResultado']>(() => {
    if (tipo === 'capsula') return api.POST('/api/capsulas/like/', { body: { id_usuario: idUsuario, id_capsula: id, add } });
    if (tipo === 'material') return api.POST('/api/bdocente/like/', { body: { id_usuario: idUsuario, id_material: id, add } });
    return api.POST('/api/manuales/like/', { body: { id_usuario: idUsuario, id_manual: id, add } });
  });
}

/** Deletes the content; true on success. */
export async function eliminar(tipo: TipoRecurso, id: number): Promise<boolean> {
  const path = { params: { path: { id } } };
  try {
    const { response } =
      tipo === 'capsula'
        ? await api.DELETE('/api/capsulas/{id}/', path)
        : tipo === 'material'
          ? await api.DELETE('/api/bdocente/{id}/', path)
          : await api.DELETE('/api/manuales/{id}/', path);
    return response.ok;
  } catch {
    return false;
  }
}

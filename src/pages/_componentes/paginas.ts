/** What the protected pages share on the server: the actor, path ids and the 404 of a service. */
import { ApiError } from '../../lib/server/api/errors.server.ts';
import type { Actor } from '../../lib/server/services/foro.server.ts';

export const actorDe = (usuario: { id: number; groups: string[] }): Actor => ({ id: usuario.id, groups: usuario.groups });

/** A path id, or null when it is not one (the page answers 404). */
export function idDe(valor: string | undefined): number | null {
  return valor && /^[1-9]\d{0,8}$/.test(valor) ? Number(valor) : null;
}

/** The service's answer, or null when it says 404 (missing, or hidden from this person). */
export async function oNoEncontrado<T>(carga: Promise<T>): Promise<T | null> {
  try {
    return await carga;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Whether the person sees Editar and Eliminar on a capsule, material or manual: its author, or an
 * admin (who moderates). The services apply the same rule to every change.
 */
export function puedeModificar(usuario: { id: number; groups: string[] }, contenido: { id_usuario: { id: number } } | null): boolean {
  return contenido !== null && (contenido.id_usuario.id === usuario.id || usuario.groups.includes('admin'));
}

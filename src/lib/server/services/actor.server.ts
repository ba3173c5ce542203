/**
 * Who acts on a service, and the permission rules every section shares: admins moderate
 * everything, a person changes only what they wrote. One definition, so no section drifts.
 */
import { esAdmin, puedeEditar } from '../../permisos.ts';
import { sinPermisos } from '../errores.server.ts';

export interface Actor {
  id: number;
  groups: string[];
}

export { esAdmin };

export function exigirAdmin(actor: Actor): void {
  if (!esAdmin(actor)) throw sinPermisos();
}

/**
 * Whether this person sees a hidden item of this author as it is: the ones who may change it (its
 * author, or an admin). Here, not with the lists, so the comment thread (recursos/hilo.server.ts)
 * asks it without importing the service that imports the thread.
 */
export const veOculto = (actor: Actor, idAutor: number): boolean => puedeEditar(actor, idAutor);

/** The author of a thing (`idAutor`) or an admin, else 403. */
export function exigirAutorOAdmin(actor: Actor, idAutor: number): void {
  if (!puedeEditar(actor, idAutor)) throw sinPermisos();
}

/** The person themself (their own profile, their own list), else 403; admins get no pass. */
export function exigirMismo(actor: Actor, id: number): void {
  if (actor.id !== id) throw sinPermisos();
}

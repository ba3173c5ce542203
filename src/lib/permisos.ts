/**
 * Who is an admin and who may change what (docs/SPEC.md): admins moderate everything, a person changes
 * only what they wrote. The services refuse with it, the pages and islands show or hide a button
 * with it: one rule, asked by both sides, so they cannot drift apart. No server code here, so
 * islands import it too.
 */

/** Anyone who carries the groups of their session: a service's actor, a page's user, a token's claims. */
export interface ConGrupos {
  groups: readonly string[];
}

export const esAdmin = (persona: ConGrupos): boolean => persona.groups.includes('admin');

/** The author of a thing (`idAutor`), or an admin, who moderates. */
export const puedeEditar = (persona: ConGrupos & { id: number }, idAutor: number): boolean => persona.id === idAutor || esAdmin(persona);

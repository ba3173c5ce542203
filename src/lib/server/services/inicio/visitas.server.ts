/**
 * When one visit of the home ends and the next begins (issue 21, decision 0045): what "since your
 * last visit" counts from.
 */

const MINUTO_MS = 60 * 1000;

/** Openings less than this apart are one visit: a reload does not zero the counts. */
export const VISITA_MS = 60 * MINUTO_MS;
/**
 * The last opening is written again only when it is older than this: a write to `usuarios` makes
 * every read cache built on that table (the signed-in person of every page, the capsule list) read
 * again, so reloads must not write. The visit rule is exact to within this.
 */
export const REFRESCO_VISITA_MS = 5 * MINUTO_MS;

/**
 * Where the visit stands after this opening, from the row as read, the time of the opening and
 * the person's latest sign-in: signing in again after the last opening starts a new visit however
 * soon it comes (issue 33), else every sign-in within the hour was the same first visit.
 */
export function siguienteVisita(
  leida: { visita_ultima: Date | null; visita_anterior: Date | null },
  ahora: Date,
  ingreso: Date | null = null,
): { visita_ultima: Date; visita_anterior: Date | null; escribir: boolean } {
  const ultima = leida.visita_ultima;
  if (!ultima) return { visita_ultima: ahora, visita_anterior: null, escribir: true };
  const pausa = ahora.getTime() - ultima.getTime();
  const reingreso = ingreso !== null && ingreso.getTime() > ultima.getTime();
  if (pausa >= VISITA_MS || reingreso) return { visita_ultima: ahora, visita_anterior: ultima, escribir: true };
  // An opening 'before' the last one (another server's clock behind) changes nothing.
  const refrescar = pausa >= REFRESCO_VISITA_MS;
  return { visita_ultima: refrescar ? ahora : ultima, visita_anterior: leida.visita_anterior, escribir: refrescar };
}

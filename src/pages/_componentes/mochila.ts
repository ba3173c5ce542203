/**
 * The mochila section of a page (issue 35, decisions 0069 and 0076): what the mochila of a
 * collection or an OA weighs, and, when it is large, how far its build is. A page reads it in its
 * frontmatter, asks the browser to reload while the build runs (a Refresh header: no script),
 * and draws it with SeccionMochila.astro.
 */
import type { AstroGlobal } from 'astro';
import { getRuntime } from '../../lib/server/runtime.server.ts';
import type { Actor } from '../../lib/server/services/actor.server.ts';
import type { FuenteMochila, ResumenMochila } from '../../lib/server/services/colecciones/mochila.server.ts';
import type { EstadoMochila, OrigenMochila } from '../../lib/server/services/colecciones/mochilas-grandes.server.ts';

/** Seconds between reloads while a mochila is being built. */
const RECARGA_SEGUNDOS = 5;

export interface DatosMochila {
  origen: OrigenMochila;
  id: number;
  /** What it holds and weighs, from the database alone (the page never plans the ZIP). */
  resumen: ResumenMochila;
  /** True when it downloads at once; else `estado` says whether it is built, being built or not asked for (null). */
  directa: boolean;
  estado: EstadoMochila | null;
}

/** The mochila of `fuente` for `actor`, or null when there is nothing in it to carry. */
export async function datosMochila(
  Astro: AstroGlobal,
  actor: Actor,
  origen: OrigenMochila,
  id: number,
  fuente: FuenteMochila,
): Promise<DatosMochila | null> {
  if (!fuente.items.some((i) => i.contenido)) return null;
  const pedido = await getRuntime().api.services.colecciones.pedirMochila(actor, origen, id, { encargar: false, fuente });
  const estado = pedido.directa ? null : pedido.estado;
  if (estado && !estado.lista) Astro.response.headers.set('refresh', String(RECARGA_SEGUNDOS));
  return { origen, id, resumen: pedido.leida.resumen, directa: pedido.directa, estado };
}

/** The download's address. */
export const urlMochila = (d: Pick<DatosMochila, 'origen' | 'id'>) =>
  d.origen === 'coleccion' ? `/api/colecciones/${d.id}/mochila/` : `/api/oas/${d.id}/mochila/`;

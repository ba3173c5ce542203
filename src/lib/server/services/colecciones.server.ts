/**
 * Saved items, collections and the mochila (issue 35): one service over the item lookup
 * (colecciones/items.server.ts), so none of them shows what a person may not see.
 */

import type { Actor } from './actor.server.ts';
import { createColecciones } from './colecciones/colecciones.server.ts';
import { createGuardados } from './colecciones/guardados.server.ts';
import { createItems } from './colecciones/items.server.ts';
import type { FuenteMochila, MochilaLeida, PlanMochila } from './colecciones/mochila.server.ts';
import { createMochila, fuenteColeccion } from './colecciones/mochila.server.ts';
import { createFuenteOa } from './colecciones/mochila-oa.server.ts';
import { createMochilasGrandes, type OrigenMochila } from './colecciones/mochilas-grandes.server.ts';
import type { ServiceContext } from './context.server.ts';

export function createColeccionesService(ctx: ServiceContext) {
  const items = createItems(ctx.db);
  const colecciones = createColecciones(ctx.db, items, ctx.now);
  const mochila = createMochila(ctx.db, ctx.storage);
  const fuenteOa = createFuenteOa(ctx.db, items);
  /** What a mochila carries, as `actor` sees it: a collection (404 when not theirs to see) or an OA's materials. */
  const fuente = async (actor: Actor, origen: OrigenMochila, id: number): Promise<FuenteMochila> =>
    origen === 'coleccion' ? fuenteColeccion(await colecciones.obtener(actor, id)) : fuenteOa(actor, id);
  const grandes = createMochilasGrandes(ctx, { mochila, fuente });
  return {
    items,
    guardados: createGuardados(ctx.db, items, ctx.now),
    ...colecciones,
    /** Deletes the collection, then its built mochilas (they carry its name and notes). */
    async eliminar(actor: Actor, id: number): Promise<void> {
      await colecciones.eliminar(actor, id);
      await grandes.olvidar('coleccion', id);
    },
    fuenteMochila: fuente,
    /**
     * The mochila as `actor` asks for it (the download, the page, its form): its summary, and a
     * large one's build state, queued (once) when `encargar` (decision 0076).
     */
    pedirMochila: grandes.pedir,
    /** What the mochila holds, each stored file's size asked of storage: to stream it or build it. */
    planMochila: (leida: MochilaLeida) => mochila.planear(leida),
    /** The mochila as a ZIP stream (never held in memory). */
    zipMochila: (plan: PlanMochila) => mochila.zip(plan, ctx.now()),
    /** The large mochilas' build and clean-up (registered by services.server.ts). */
    trabajos: grandes.trabajos,
    programar: grandes.programar,
  };
}

export type ColeccionesService = ReturnType<typeof createColeccionesService>;

/**
 * Saved items, collections and the mochila (issue 35): one service over the item lookup
 * (colecciones/items.server.ts), so none of them shows what a person may not see.
 */

import type { Actor } from './actor.server.ts';
import { createColecciones } from './colecciones/colecciones.server.ts';
import { createGuardados } from './colecciones/guardados.server.ts';
import { createItems } from './colecciones/items.server.ts';
import type { FuenteMochila, PlanMochila } from './colecciones/mochila.server.ts';
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
    /** What the mochila holds and weighs, as its source showed it to its reader. */
    planMochila: (f: FuenteMochila) => mochila.planear(f),
    /** The mochila as a ZIP stream (never held in memory). */
    zipMochila: (plan: PlanMochila) => mochila.zip(plan, ctx.now()),
    /** True when the mochila streams on request; else it is built by the job first (decision 0076). */
    mochilaDirecta: grandes.directa,
    /** A large mochila's built file or progress; `encargar` queues its build (once). */
    estadoMochila: grandes.estado,
    /** The large mochilas' build and clean-up (registered by services.server.ts). */
    trabajos: grandes.trabajos,
    programar: grandes.programar,
  };
}

export type ColeccionesService = ReturnType<typeof createColeccionesService>;

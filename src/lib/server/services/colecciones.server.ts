/**
 * Saved items, collections and the mochila (issue 35): one service over the item lookup
 * (colecciones/items.server.ts), so none of them shows what a person may not see.
 */

import { type Coleccion, createColecciones } from './colecciones/colecciones.server.ts';
import { createGuardados } from './colecciones/guardados.server.ts';
import { createItems } from './colecciones/items.server.ts';
import type { PlanMochila } from './colecciones/mochila.server.ts';
import { createMochila } from './colecciones/mochila.server.ts';
import type { ServiceContext } from './context.server.ts';

export function createColeccionesService(ctx: ServiceContext) {
  const items = createItems(ctx.db);
  const colecciones = createColecciones(ctx.db, items, ctx.now);
  const mochila = createMochila(ctx.db, ctx.storage);
  return {
    items,
    guardados: createGuardados(ctx.db, items, ctx.now),
    ...colecciones,
    /** What the collection's mochila holds and weighs, as `obtener` showed it to its reader. */
    planMochila: (coleccion: Coleccion) => mochila.planear(coleccion),
    /** The mochila as a ZIP stream (never held in memory). */
    zipMochila: (plan: PlanMochila) => mochila.zip(plan, ctx.now()),
  };
}

export type ColeccionesService = ReturnType<typeof createColeccionesService>;

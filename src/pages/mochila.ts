/**
 * POST /mochila: 'Preparar mochila' on a collection's or an OA's page as a plain form
 * (pages/_componentes/SeccionMochila.astro). Fields: `origen` (coleccion, oa) and `id`. Queues the
 * build of the large mochila as the signed-in person sees it (once, however often it is asked),
 * as the first GET of its download would, and answers 303 to the page, which shows its progress.
 */
import { z } from 'zod';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { alternar } from './_componentes/volver.ts';

export const prerender = false;

const campos = z.object({ origen: z.enum(['coleccion', 'oa']), id: z.coerce.number().int().positive() });

export const POST = alternar(campos, async (actor, { origen, id }) => {
  await getRuntime().api.services.colecciones.pedirMochila(actor, origen, id, { encargar: true });
});

/**
 * The forum (docs/SPEC.md sections 2 to 9): categories with an image, conversations, comments nested
 * to any depth, and reactions. Each resource is its own module under foro/; this composes them
 * into the one service the routes and pages use, with each target's reactions beside it.
 */
import type { ServiceContext } from './context.server.ts';
import { createCategoriasForo } from './foro/categorias.server.ts';
import { createComentariosForo } from './foro/comentarios.server.ts';
import { createForoComun } from './foro/comun.server.ts';
import { createConversacionesForo } from './foro/conversaciones.server.ts';
import { createReaccionesForo } from './foro/reacciones.server.ts';

// Pages take the actor type from here; routes validate reaction ids with the service's guards.
export type { Actor } from './actor.server.ts';
export { esReaccion, esReaccionComentario } from './foro/comun.server.ts';

export function createForoService(ctx: ServiceContext) {
  const comun = createForoComun(ctx);
  const reacciones = createReaccionesForo(ctx, comun);
  return {
    categorias: createCategoriasForo(ctx, comun),
    conversaciones: { ...createConversacionesForo(ctx, comun), ...reacciones.conversacion },
    comentarios: { ...createComentariosForo(ctx, comun), ...reacciones.comentario },
  };
}

export type ForoService = ReturnType<typeof createForoService>;

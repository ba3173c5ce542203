/**
 * POST /guardar: 'Guardar' on a detail page as a plain form (pages/_componentes/BotonGuardar.astro),
 * so it works without JavaScript, as the like button does. Fields: `tipo` (capsula, material,
 * manual, conversacion), `id`, `add` ('true' to save, 'false' to forget). Answers 303 to the page
 * the form was on, which draws the button again from the database; an item the person may not see
 * is not saved, and the page they come back to says what it says about it. The middleware has
 * already checked the origin and the session.
 */
import { z } from 'zod';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { guardadoSchema } from '../lib/validation/colecciones.ts';
import { alternar } from './_componentes/volver.ts';

export const prerender = false;

const campos = guardadoSchema.extend({ add: z.enum(['true', 'false']).transform((v) => v === 'true') });

export const POST = alternar(campos, (actor, { tipo, id, add }) => {
  const { guardados } = getRuntime().api.services.colecciones;
  return add ? guardados.guardar(actor, { tipo, id }) : guardados.quitar(actor, { tipo, id });
});

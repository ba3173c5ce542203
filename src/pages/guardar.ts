/**
 * POST /guardar: 'Guardar' on a detail page as a plain form (pages/_componentes/BotonGuardar.astro),
 * so it works without JavaScript, as the like button does. Fields: `tipo` (capsula, material,
 * manual, conversacion), `id`, `add` ('true' to save, 'false' to forget). Answers 303 to the page
 * the form was on, which draws the button again from the database; an item the person may not see
 * is not saved, and the page they come back to says what it says about it. The middleware has
 * already checked the origin and the session.
 */
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { ApiError } from '../lib/server/api/errors.server.ts';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { guardadoSchema } from '../lib/validation/colecciones.ts';
import { actorDe, usuarioDe } from './_componentes/paginas.ts';
import { formularioCorto, volver } from './_componentes/volver.ts';

export const prerender = false;

const campos = guardadoSchema.extend({ add: z.enum(['true', 'false']).transform((v) => v === 'true') });

export const POST: APIRoute = async ({ request, locals, url, redirect }) => {
  const usuario = usuarioDe(locals);
  const destino = volver(request.headers.get('referer'), url.origin);
  const leido = await formularioCorto(request, campos);
  if ('respuesta' in leido) return leido.respuesta;
  const { tipo, id, add } = leido.datos;
  const { guardados } = getRuntime().api.services.colecciones;
  try {
    if (add) await guardados.guardar(actorDe(usuario), { tipo, id });
    else await guardados.quitar(actorDe(usuario), { tipo, id });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  return redirect(destino, 303);
};

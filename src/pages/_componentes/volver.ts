/**
 * The toggles posted as plain forms from a detail page (/me-gusta, /guardar): a few short fields
 * read and checked, the change made as the signed-in person, and a 303 to the page the form was on.
 */
import type { APIRoute } from 'astro';
import type { z } from 'zod';
import { ApiError } from '../../lib/server/api/errors.server.ts';
import type { Actor } from '../../lib/server/services/actor.server.ts';
import { actorDe, usuarioDe } from './paginas.ts';

/** A few short fields: anything longer is not one of these forms. */
const MAX_BYTES = 1024;

/**
 * The path (and query) of a same-origin Referer, else the home page. Referrer-Policy same-origin
 * sends it on the site's own form posts.
 */
function volver(referer: string | null, origen: string): string {
  if (!referer) return '/';
  try {
    const url = new URL(referer);
    return url.origin === origen ? url.pathname + url.search : '/';
  } catch {
    return '/';
  }
}

/** The form's fields as `campos` reads them, or the answer to send instead (413, 400). */
async function formularioCorto<S extends z.ZodType>(
  request: Request,
  campos: S,
): Promise<{ datos: z.output<S> } | { respuesta: Response }> {
  const largo = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!(largo <= MAX_BYTES)) return { respuesta: new Response('Solicitud demasiado grande', { status: 413 }) };
  const datos = campos.safeParse(Object.fromEntries(new URLSearchParams(await request.text())));
  if (!datos.success) return { respuesta: new Response('Solicitud no válida', { status: 400 }) };
  return { datos: datos.data };
}

/**
 * The POST handler of one such toggle: `hacer` with the fields `campos` read. The middleware has
 * already checked the origin and the session. A refusal of the service (missing or hidden
 * content) is silent: the page the person comes back to says what it says about it.
 */
export function alternar<S extends z.ZodType>(campos: S, hacer: (actor: Actor, datos: z.output<S>) => Promise<unknown>): APIRoute {
  return async ({ request, locals, url, redirect }) => {
    const usuario = usuarioDe(locals);
    const destino = volver(request.headers.get('referer'), url.origin);
    const leido = await formularioCorto(request, campos);
    if ('respuesta' in leido) return leido.respuesta;
    try {
      await hacer(actorDe(usuario), leido.datos);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    return redirect(destino, 303);
  };
}

/**
 * POST /me-gusta: the like button as a plain form (src/islands/comun/BotonMeGusta.tsx), so it
 * works before its island is live and without JavaScript. Fields: `tipo` (capsula, material,
 * manual), `id`, `add` ('true' to like, 'false' to unlike). Answers 303 to the page the form was
 * on (the Referer, same origin only; Referrer-Policy same-origin sends it), where the count is
 * drawn again from the database. The middleware has already checked that the post comes from this
 * origin and that the person is signed in. A like that fails is silent, as with the island
 * (docs/SPEC.md section 8): the page simply shows the count as it is.
 */
import type { APIRoute } from 'astro';
import { z } from 'zod';
import { ApiError } from '../lib/server/api/errors.server.ts';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { actorDe, usuarioDe } from './_componentes/paginas.ts';

export const prerender = false;

/** Three short fields: anything longer is not this form. */
const MAX_BYTES = 1024;

const campos = z.object({
  tipo: z.enum(['capsula', 'material', 'manual']),
  id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/)
    .transform(Number),
  add: z.enum(['true', 'false']).transform((v) => v === 'true'),
});

/** The path (and query) of a same-origin Referer, else the home page. */
function volver(referer: string | null, origen: string): string {
  if (!referer) return '/';
  try {
    const url = new URL(referer);
    return url.origin === origen ? url.pathname + url.search : '/';
  } catch {
    return '/';
  }
}

export const POST: APIRoute = async ({ request, locals, url, redirect }) => {
  const usuario = usuarioDe(locals);
  const destino = volver(request.headers.get('referer'), url.origin);
  const largo = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!(largo <= MAX_BYTES)) return new Response('Solicitud demasiado grande', { status: 413 });
  const datos = campos.safeParse(Object.fromEntries(new URLSearchParams(await request.text())));
  if (!datos.success) return new Response('Solicitud no válida', { status: 400 });
  const { tipo, id, add } = datos.data;
  try {
    await getRuntime().api.services.capsulas.recursos.like(tipo, id, actorDe(usuario), add);
  } catch (error) {
    // Missing or hidden content: the page the person comes back to says so, or shows the count.
    if (!(error instanceof ApiError)) throw error;
  }
  return redirect(destino, 303);
};

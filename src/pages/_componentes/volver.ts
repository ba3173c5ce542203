/**
 * The toggles posted as plain forms from a detail page (/me-gusta, /guardar): a few short fields
 * read and checked, and the page the form was on to answer 303 to.
 */
import type { z } from 'zod';

/** A few short fields: anything longer is not one of these forms. */
const MAX_BYTES = 1024;

/**
 * The path (and query) of a same-origin Referer, else `otro` (the home page). Referrer-Policy
 * same-origin sends it on the site's own form posts.
 */
export function volver(referer: string | null, origen: string, otro = '/'): string {
  if (!referer) return otro;
  try {
    const url = new URL(referer);
    return url.origin === origen ? url.pathname + url.search : otro;
  } catch {
    return otro;
  }
}

/** The form's fields as `campos` reads them, or the answer to send instead (413, 400). */
export async function formularioCorto<S extends z.ZodType>(
  request: Request,
  campos: S,
): Promise<{ datos: z.output<S> } | { respuesta: Response }> {
  const largo = Number(request.headers.get('content-length') ?? Number.NaN);
  if (!(largo <= MAX_BYTES)) return { respuesta: new Response('Solicitud demasiado grande', { status: 413 }) };
  const datos = campos.safeParse(Object.fromEntries(new URLSearchParams(await request.text())));
  if (!datos.success) return { respuesta: new Response('Solicitud no válida', { status: 400 }) };
  return { datos: datos.data };
}

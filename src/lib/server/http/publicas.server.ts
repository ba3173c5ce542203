/**
 * What keeps the public pages cheap to serve (issue 34 point 5, decision 0068), for a visitor with
 * no session: the pages under /explorar/, robots.txt and sitemap.xml carry an ETag and answer 304
 * to a client (or a CDN) that already has them, and count against the address's limit
 * (auth/limite-publico.server.ts) as the public files they link do; past it a 429 with
 * Retry-After. A signed-in teacher is never counted (the page middleware and the file routes call
 * this only when no valid session came with the request).
 */
import { createHash } from 'node:crypto';
import { PRODUCTO } from '../../marca.ts';
import type { LimitePublico } from '../auth/limite-publico.server.ts';

/** The sentence of a refusal, for the page and the files' JSON alike. */
export const demasiadasVisitasTexto = (segundos: number) =>
  `Recibimos demasiadas visitas seguidas desde tu conexión. Espera ${segundos} ${segundos === 1 ? 'segundo' : 'segundos'} y vuelve a intentarlo.`;

/** The refusal of a public page: a small Spanish page, never kept by a cache. */
function demasiadasVisitas(segundos: number): Response {
  const html = `<!doctype html>
<html lang="es-CL">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Demasiadas visitas · ${PRODUCTO}</title></head>
<body><main><h1>Demasiadas visitas seguidas</h1><p>${demasiadasVisitasTexto(segundos)}</p><p>Si eres docente de la red, <a href="/ingresar/">ingresa</a>: con tu sesión no hay este límite.</p></main></body>
</html>
`;
  return new Response(html, {
    status: 429,
    headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': String(segundos), 'cache-control': 'no-store' },
  });
}

/** A weak validator of a page's bytes (weak: the same page goes out compressed one way or another). */
function etiquetaDe(cuerpo: Uint8Array): string {
  return `W/"${createHash('sha256').update(cuerpo).digest('base64url').slice(0, 27)}"`;
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): any listed tag, W/ or not, or '*'. */
function coincideEtiqueta(ifNoneMatch: string | null, etiqueta: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaca = (e: string) => e.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((e) => opaca(e) === opaca(etiqueta));
}

/** A public page's 200 with its ETag, or a 304 without a body when the client already has those bytes. */
export async function conEtiqueta(request: Request, response: Response): Promise<Response> {
  if (response.status !== 200 || !response.body || (request.method !== 'GET' && request.method !== 'HEAD')) return response;
  const cuerpo = new Uint8Array(await response.arrayBuffer());
  const etiqueta = etiquetaDe(cuerpo);
  const headers = new Headers(response.headers);
  headers.set('etag', etiqueta);
  if (coincideEtiqueta(request.headers.get('if-none-match'), etiqueta)) {
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(cuerpo, { status: 200, statusText: response.statusText, headers });
}

/**
 * A public page for a visitor with no session: refused with a 429 when `direccion` is over the
 * limit (before anything is rendered), else rendered and answered with its ETag or a 304.
 */
export async function paginaPublica(
  request: Request,
  direccion: string,
  limite: LimitePublico,
  render: () => Promise<Response>,
): Promise<Response> {
  const espera = limite.contar(direccion);
  if (espera > 0) return demasiadasVisitas(espera);
  return conEtiqueta(request, await render());
}

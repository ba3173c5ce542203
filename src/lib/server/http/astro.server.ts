/** The bridge from Astro's catch-all endpoints to the Hono app. */
import type { APIContext } from 'astro';
import { ACCESS_COOKIE } from '../auth/cookies.server.ts';
import { verifyAccessToken } from '../auth/tokens.server.ts';
import { getRuntime } from '../runtime.server.ts';
import { resolveSession } from './session.server.ts';

/**
 * Reads that a browser makes without our script (video segments, thumbnails, downloads, the PDF
 * viewer), authenticated by the session cookie.
 */
const lecturaConCookie = /^\/(streaming|miniaturas)\/|^\/api\/(capsulas|bdocente|manuales)\/\d+\/(descargar|leer)\/?$/;

export async function handleApi(context: APIContext): Promise<Response> {
  const runtime = getRuntime();
  return runtime.api.app.fetch(await renovada(context), { clientAddress: context.clientAddress });
}

/**
 * A teacher who watches a video or opens a download after the 15-minute access token expired
 * still has the refresh cookie: renew the session on the spot (new cookies on this response) and
 * hand the new token to the API, as protected pages do.
 */
async function renovada(context: APIContext): Promise<Request> {
  const { request, url, cookies } = context;
  if (request.method !== 'GET' || request.headers.has('authorization') || !lecturaConCookie.test(url.pathname)) return request;
  const { keys } = getRuntime().api;
  const access = cookies.get(ACCESS_COOKIE)?.value;
  if (access && verifyAccessToken(access, keys)) return request;
  if (!(await resolveSession(cookies))) return request;
  const nuevo = cookies.get(ACCESS_COOKIE)?.value;
  if (!nuevo) return request;
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${nuevo}`);
  return new Request(request, { headers });
}

/**
 * Runs for every page rendered on request (the HTTP server gives API paths to the Hono app,
 * never to Astro, decisions 0040 and 0051):
 * - protected pages: the session from the cookies (renewed silently when the access token
 *   expired) goes to `Astro.locals.usuario`; without one, a redirect to /ingresar/ that remembers
 *   where the person was going;
 * - public pages rendered on request (the privacy notice, issue 31) go through without a session;
 * - a visitor's page under /explorar/ (and robots.txt, sitemap.xml) counts against the address's
 *   limit and carries an ETag, answered with a 304 when the client has it (issue 34);
 * - a signed-in person who has not accepted the privacy notice's current version sees the
 *   acceptance page before any other page (decision 0057; the API keeps answering them);
 * - then, an admin without a second factor while TOTP_ADMIN_OBLIGATORIO is on sees the enrolment
 *   page before any other page, the same way (issue 32, decision 0065);
 * - a same-origin check for cookie-authenticated page form posts (the API instead requires a
 *   Bearer header for every change, so requests without an Origin header reach it);
 * - headers that keep per-user HTML out of shared caches, the security headers beside the
 *   Content-Security-Policy Astro rendered with the page (decision 0022), and compression;
 * - the page handed to the server's page cache when the server asked for it (`locals.pagina`,
 *   http/paginas.server.ts): kept unless the render set a cookie (a renewed session).
 */
import { defineMiddleware } from 'astro:middleware';
// Islands render without outlined Suspense boundaries, which would need inline scripts (decision 0079).
import './lib/server/http/react-ssr.server.ts';
import { direccionCliente } from './lib/server/api/env.server.ts';
import { compressResponse } from './lib/server/http/compress.server.ts';
import { withPageHeaders } from './lib/server/http/headers.server.ts';
import { paginaPublica } from './lib/server/http/publicas.server.ts';
import { resolveSession } from './lib/server/http/session.server.ts';
import { getRuntime } from './lib/server/runtime.server.ts';
import { debeAceptarPrivacidad } from './lib/server/services/privacidad.server.ts';
import { PUBLICO_MAX_AGE } from './lib/server/services/publicos.server.ts';
import { debeInscribirSegundoFactor, PAGINA_INSCRIPCION } from './lib/server/services/segundo-factor.server.ts';

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Pages anyone may read, signed in or not (sign-in is rendered on request for its providers' buttons, issue 32). */
const PUBLICAS = new Set(['/404', '/privacidad', '/ingresar']);
/**
 * The public pages of issue 34 (decision 0068): anyone reads them without a session, search
 * engines may index them, and a shared cache may keep them PUBLICO_MAX_AGE seconds when no one is
 * signed in. Every other page says noindex (X-Robots-Tag).
 */
const esExplorar = (ruta: string) =>
  ruta === '/robots.txt' || ruta === '/sitemap.xml' || ruta === '/explorar' || ruta.startsWith('/explorar/');
/** The client's address, behind TRUST_PROXY proxies (as the API counts it). */
const direccionDe = (context: { clientAddress: string; request: Request }) =>
  direccionCliente(context.clientAddress, context.request.headers.get('x-forwarded-for') ?? undefined, getRuntime().config.TRUST_PROXY);
/** The pages of the notice itself, open to a person who still has to accept it. */
const ACEPTAR = '/privacidad/aceptar';

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url } = context;
  if (context.isPrerendered) return next();

  if (unsafe.has(request.method) && request.headers.get('origin') !== url.origin) {
    return new Response('Origen no permitido', { status: 403, headers: withPageHeaders(new Headers()) });
  }
  const usuario = await resolveSession(context.cookies);
  const explorar = esExplorar(context.routePattern);
  if (!usuario && !PUBLICAS.has(context.routePattern) && !explorar) {
    const siguiente = url.pathname + url.search;
    const redirect = context.redirect(siguiente === '/' ? '/ingresar/' : `/ingresar/?siguiente=${encodeURIComponent(siguiente)}`, 302);
    withPageHeaders(redirect.headers);
    return redirect;
  }
  if (usuario && debeAceptarPrivacidad(usuario) && !PUBLICAS.has(context.routePattern) && context.routePattern !== ACEPTAR) {
    const siguiente = url.pathname + url.search;
    const redirect = context.redirect(`${ACEPTAR}/?siguiente=${encodeURIComponent(siguiente)}`, 302);
    withPageHeaders(redirect.headers);
    return redirect;
  }
  // Not on the notice's own page: it must be accepted first (the two redirects would loop).
  const inscribir = usuario && context.routePattern !== ACEPTAR && context.routePattern !== PAGINA_INSCRIPCION;
  if (inscribir && !PUBLICAS.has(context.routePattern) && debeInscribirSegundoFactor(usuario, getRuntime().config.TOTP_ADMIN_OBLIGATORIO)) {
    const redirect = context.redirect(`${PAGINA_INSCRIPCION}/`, 302);
    withPageHeaders(redirect.headers);
    return redirect;
  }
  context.locals.usuario = usuario ?? undefined;
  // A visitor's public page: counted against the address's limit, with an ETag (publicas.server.ts).
  const visitante = explorar && !usuario;
  const response = visitante ? await paginaPublica(request, direccionDe(context), getRuntime().services.limitePublico, next) : await next();
  // A refusal is never kept; a visitor's public page may be, by a CDN; anything else only by the browser.
  const compartible = visitante ? `public, max-age=${PUBLICO_MAX_AGE}` : 'private, no-cache';
  response.headers.set('cache-control', response.status === 429 ? 'no-store' : compartible);
  if (!explorar && context.routePattern !== '/privacidad') response.headers.set('x-robots-tag', 'noindex');
  withPageHeaders(response.headers);
  const enviada = compressResponse(request, response);
  const fijaCookies = !context.cookies.headers().next().done;
  return context.locals.pagina?.guardar(enviada, { fijaCookies }) ?? enviada;
});

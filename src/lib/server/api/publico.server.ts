/**
 * The file routes of a public item (issue 34, decision 0067): its download, thumbnail and video
 * answer a visitor with no session at all; anyone who brings a session, and every other item,
 * go through the cookie check as before (401 without a session). The item's being public is read
 * on each request, so its files stop being served the moment it leaves 'cualquier persona'.
 */
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { esId, numeroDe } from '../../validation/campos.ts';
import { licenciaDe } from '../../validation/licencias.ts';
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../auth/cookies.server.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { demasiadasVisitasTexto } from '../http/publicas.server.ts';
import { LECTOR_PUBLICO, PUBLICO_MAX_AGE } from '../services/publicos.server.ts';
import { type AppEnv, autenticado, clientAddress } from './env.server.ts';
import { errorResponse } from './errors.server.ts';

/** Whether a request carries any sign of a session (then the session decides, as before). */
const traeSesion = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) =>
  c.req.header('authorization') !== undefined || getCookie(c, ACCESS_COOKIE) !== undefined || getCookie(c, REFRESH_COOKIE) !== undefined;

/** A download's answer with its licence named (RFC 8288's Link header, the registered 'license' relation). */
export function conLicencia(res: Response, codigo: string): Response {
  const url = licenciaDe(codigo).url;
  if (!url) return res;
  const out = new Response(res.body, res);
  out.headers.append('link', `<${url}>; rel="license"`);
  return out;
}

/**
 * `autenticado(keys, { cookie: true })`, except that a GET with no session for an item that is
 * public now goes through as LECTOR_PUBLICO (no account, no admin), its answer cacheable by a
 * shared cache for PUBLICO_MAX_AGE seconds. Every GET with no session counts against its
 * address's limit (PUBLICO_POR_MINUTO); one that brings a session is never counted.
 */
export function sesionOPublico(keys: TokenKeys, esPublico: (id: number) => Promise<boolean>): MiddlewareHandler<AppEnv> {
  const conCookie = autenticado(keys, { cookie: true });
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = numeroDe(c.req.param('id'));
    const anonimo = c.req.method === 'GET' && !traeSesion(c);
    // Counted before the database is asked: a refusal costs nothing (publicas.server.ts).
    const espera = anonimo ? (c.var.limitePublico?.contar(clientAddress(c)) ?? 0) : 0;
    if (espera > 0) {
      const detail = demasiadasVisitasTexto(espera);
      return errorResponse(429, { detail, statusCode: 429 }, { 'retry-after': String(espera), 'cache-control': 'no-store' });
    }
    if (anonimo && esId(id) && (await esPublico(id))) {
      c.set('auth', { sub: LECTOR_PUBLICO.id, groups: LECTOR_PUBLICO.groups, sid: '' });
      await next();
      // The answer Hono keeps is its own copy (its headers may change).
      if (c.res.ok) c.res.headers.set('cache-control', `public, max-age=${PUBLICO_MAX_AGE}`);
      return;
    }
    return conCookie(c, next);
  });
}

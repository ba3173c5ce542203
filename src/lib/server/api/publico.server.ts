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
import { LECTOR_PUBLICO, PUBLICO_MAX_AGE } from '../services/publicos.server.ts';
import { type AppEnv, autenticado } from './env.server.ts';

/** Whether a request carries any sign of a session (then the session decides, as before). */
const traeSesion = (c: Parameters<MiddlewareHandler<AppEnv>>[0]) =>
  c.req.header('authorization') !== undefined || getCookie(c, ACCESS_COOKIE) !== undefined || getCookie(c, REFRESH_COOKIE) !== undefined;

/**
 * `autenticado(keys, { cookie: true })`, except that a GET with no session for an item that is
 * public now goes through as LECTOR_PUBLICO (no account, no admin), its answer cacheable by a
 * shared cache for PUBLICO_MAX_AGE seconds.
 */
/** A download's answer with its licence named (RFC 8288's Link header, the registered 'license' relation). */
export function conLicencia(res: Response, codigo: string): Response {
  const url = licenciaDe(codigo).url;
  if (!url) return res;
  const out = new Response(res.body, res);
  out.headers.append('link', `<${url}>; rel="license"`);
  return out;
}

export function sesionOPublico(keys: TokenKeys, esPublico: (id: number) => Promise<boolean>): MiddlewareHandler<AppEnv> {
  const conCookie = autenticado(keys, { cookie: true });
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = numeroDe(c.req.param('id'));
    if (c.req.method === 'GET' && !traeSesion(c) && esId(id) && (await esPublico(id))) {
      c.set('auth', { sub: LECTOR_PUBLICO.id, groups: LECTOR_PUBLICO.groups, sid: '' });
      await next();
      // The answer Hono keeps is its own copy (its headers may change).
      if (c.res.ok) c.res.headers.set('cache-control', `public, max-age=${PUBLICO_MAX_AGE}`);
      return;
    }
    return conCookie(c, next);
  });
}

/** Types and guards shared by every API section. */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ACCESS_COOKIE, applyCookies, type CookieSpec, REFRESH_COOKIE } from '../auth/cookies.server.ts';
import type { LimitePublico } from '../auth/limite-publico.server.ts';
import type { RenovarSesion } from '../auth/renovacion.server.ts';
import { type AccessClaims, type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import type { Logger } from '../log.server.ts';
import { type Actor, esAdmin } from '../services/actor.server.ts';
import type { OrigenIngreso } from '../services/segundo-factor.server.ts';
import { noAutenticado, sinPermisos } from './errors.server.ts';

export interface AppEnv {
  /**
   * From the HTTP bridge: the socket's peer address and `TRUST_PROXY`, the number of reverse
   * proxies in front of the server (0: none, X-Forwarded-For is ignored).
   */
  Bindings: { clientAddress?: string; trustProxy?: number };
  Variables: {
    requestId: string;
    log: Logger;
    auth: AccessClaims;
    renovarSesion?: RenovarSesion;
    /** The public files' per-address limit for visitors with no session (issue 34, publico.server.ts). */
    limitePublico?: LimitePublico;
  };
}

/**
 * The address a request came from, behind `hops` trusted proxies: each proxy appends the address
 * it received the request from to X-Forwarded-For, so the entry `hops` places from the right is
 * the right-most one no client could write. Entries further left are whatever the client sent.
 * Undefined when the header has fewer entries (the request did not come through the proxies).
 */
export function forwardedAddress(header: string | undefined, hops: number): string | undefined {
  const entries = (header ?? '').split(',').map((e) => e.trim());
  const entry = entries.length >= hops ? entries[entries.length - hops] : undefined;
  return entry ? entry.slice(0, 100) : undefined;
}

/** The client's address: the socket's, or behind `hops` trusted proxies the one they forwarded. */
export function direccionCliente(socket: string, forwardedFor: string | undefined, hops: number): string {
  return hops > 0 ? (forwardedAddress(forwardedFor, hops) ?? socket) : socket;
}

/** The client address every per-address limit counts (sign-in, password reset). */
export function clientAddress(c: Context<AppEnv>): string {
  return direccionCliente(c.env?.clientAddress ?? 'local', c.req.header('x-forwarded-for'), c.env?.trustProxy ?? 0);
}

/** Where a sign-in comes from: the client address, its browser and the way in ('password', 'oidc:google'...). */
export const origenIngreso = (c: Context<AppEnv>, via: string): OrigenIngreso => ({
  direccion: clientAddress(c),
  agente: c.req.header('user-agent'),
  via,
});

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
}

/**
 * Requires a valid access token in the Authorization header. With `cookie: true` (reads a browser
 * makes without our script: img and video tags, downloads, the PDF viewer) the access cookie is
 * accepted for GETs, and once it has expired (after 15 minutes) the refresh cookie renews the
 * session on the spot, as protected pages do, with the new cookies on the response.
 */
export function autenticado(keys: TokenKeys, options: { cookie?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const deCabecera = bearer(c);
    const porCookie = deCabecera === undefined && options.cookie === true && c.req.method === 'GET';
    const token = porCookie ? getCookie(c, ACCESS_COOKIE) : deCabecera;
    let claims = await verificarAcceso(token, keys);
    let cookies: CookieSpec[] = [];
    const refresh = porCookie && !claims ? getCookie(c, REFRESH_COOKIE) : undefined;
    if (refresh && c.var.renovarSesion) {
      const renovada = await c.var.renovarSesion(refresh);
      claims = await verificarAcceso(renovada.sesion?.access, keys);
      cookies = renovada.cookies;
    }
    const ponerCookies = () => applyCookies((name, value, o) => setCookie(c, name, value, o), cookies);
    if (!claims) {
      if (cookies.length === 0) throw noAutenticado();
      // The 401 of a dead refresh cookie clears the session (a thrown error would lose the cookies).
      ponerCookies();
      const { status, body } = noAutenticado();
      return c.body(JSON.stringify(body), status, { 'content-type': 'application/json; charset=utf-8' });
    }
    c.set('auth', claims);
    c.set('log', c.var.log.child({ userId: claims.sub }));
    await next();
    // After the handler: cookies set earlier would be lost on a Response it builds itself.
    ponerCookies();
  });
}

/** The signed-in person, as the services take them. */
export const actor = (c: Context<AppEnv>): Actor => ({ id: c.var.auth.sub, groups: c.var.auth.groups });

export function soloAdmin(c: Context<AppEnv>): void {
  if (!esAdmin(c.var.auth)) throw sinPermisos();
}

/** The path id must be the signed-in user (SPEC: 'path id is the signed-in user's'). */
export function mismoUsuario(c: Context<AppEnv>, id: number): void {
  if (c.var.auth.sub !== id) throw sinPermisos();
}

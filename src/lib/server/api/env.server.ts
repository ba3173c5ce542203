/** Types and guards shared by every API section. */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ACCESS_COOKIE } from '../auth/cookies.server.ts';
import { type AccessClaims, type TokenKeys, verifyAccessToken } from '../auth/tokens.server.ts';
import type { Logger } from '../log.server.ts';
import { ApiError, noAutenticado, sinPermisos } from './errors.server.ts';

export interface AppEnv {
  Bindings: { clientAddress?: string };
  Variables: { requestId: string; log: Logger; auth: AccessClaims };
}

export const clientAddress = (c: Context<AppEnv>) => c.env?.clientAddress ?? 'local';

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return m?.[1];
}

/**
 * Requires a valid access token in the Authorization header. With `cookie: true` (media routes
 * only: img and video tags cannot send headers) the access cookie is accepted for reads.
 */
export function autenticado(keys: TokenKeys, options: { cookie?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = bearer(c) ?? (options.cookie && c.req.method === 'GET' ? getCookie(c, ACCESS_COOKIE) : undefined);
    const claims = token ? verifyAccessToken(token, keys) : null;
    if (!claims) throw noAutenticado();
    c.set('auth', claims);
    c.set('log', c.var.log.child({ userId: claims.sub }));
    await next();
  });
}

export const esAdmin = (claims: AccessClaims) => claims.groups.includes('admin');

export function soloAdmin(c: Context<AppEnv>): void {
  if (!esAdmin(c.var.auth)) throw sinPermisos();
}

/** The path id must be the signed-in user (SPEC: 'path id is the signed-in user's'). */
export function mismoUsuario(c: Context<AppEnv>, id: number): void {
  if (c.var.auth.sub !== id) throw new ApiError(403, 'No tienes permisos');
}

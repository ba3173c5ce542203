/**
 * The guard of every /api/admin/ route: the bearer token of a user in group 'admin', or the local
 * admin key (`X-Admin-Key`, what `npm run usuarios` sends while the server runs). It records who
 * acts in `adminActor`, for the audit log (services/registro.server.ts): the admin's id, or null
 * for the key.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import { esAdmin } from '../services/actor.server.ts';
import type { ActorAdmin } from '../services/registro.server.ts';
import { type AppEnv, autenticado } from './env.server.ts';
import { noAutenticado, sinPermisos } from './errors.server.ts';

export const ADMIN_KEY_HEADER = 'x-admin-key';

/** Compares two secrets in constant time. */
export function mismoSecreto(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type AdminEnv = AppEnv & { Variables: AppEnv['Variables'] & { adminActor: ActorAdmin } };

export function soloAdminOClave(deps: { keys: TokenKeys; adminKey: string }) {
  return createMiddleware<AdminEnv>(async (c, next) => {
    const key = c.req.header(ADMIN_KEY_HEADER);
    if (key !== undefined) {
      if (!mismoSecreto(key, deps.adminKey)) throw sinPermisos();
      c.set('adminActor', { id: null });
      return next();
    }
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    const claims = await verificarAcceso(m?.[1], deps.keys);
    if (!claims) throw noAutenticado();
    if (!esAdmin(claims)) throw sinPermisos();
    c.set('auth', claims);
    c.set('adminActor', { id: claims.sub });
    await next();
  });
}

/**
 * soloAdminOClave for a download the console offers as a plain link (a backup, the curriculum's
 * export): the session cookie counts too when no header says who calls.
 */
export function soloAdminConCookie(deps: { keys: TokenKeys; adminKey: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const conCookie = autenticado(deps.keys, { cookie: true });
  return createMiddleware<AdminEnv>(async (c, next) => {
    if (c.req.header(ADMIN_KEY_HEADER) !== undefined || c.req.header('authorization') !== undefined) return soloAdmin(c, next);
    // The same context: AdminEnv only adds `adminActor`, which `autenticado` never touches.
    return conCookie(c as unknown as Context<AppEnv>, async () => {
      if (!esAdmin(c.var.auth)) throw sinPermisos();
      c.set('adminActor', { id: c.var.auth.sub });
      await next();
    });
  });
}

/**
 * The guard of every /api/admin/ route: the bearer token of a user in group 'admin', or the local
 * admin key (`X-Admin-Key`, what `npm run usuarios` sends while the server runs). It records who
 * acts in `adminActor`, for the audit log (services/registro.server.ts): the admin's id, or null
 * for the key.
 */
import { timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import { esAdmin } from '../services/actor.server.ts';
import type { ActorAdmin } from '../services/registro.server.ts';
import type { AppEnv } from './env.server.ts';
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

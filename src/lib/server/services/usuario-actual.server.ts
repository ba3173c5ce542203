/**
 * The signed-in person of a page request, as the top bar and the pages show them, cached: looking
 * them up took five queries per page (the user and four profile tables), most of a page's
 * database work. What decides access is not cached here: the caller has just asked
 * `sesiones.vigente` (a 2 s bound) whether the session holds and the user is active, and the groups
 * come from that answer, so a sign-out, a deactivation or a role change takes effect as before.
 * The displayed data is read again after any write to its tables in this process (db/cambios),
 * and after `CACHE_SECONDS` at most when other servers share the database.
 */
import type { AccessClaims } from '../auth/tokens.server.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import { obtenerUsuario, TABLAS_USUARIO, type Usuario } from './usuarios.server.ts';

export const CACHE_SECONDS = 10;

export function createUsuarioActual(ctx: { db: Db; now: () => Date }) {
  const cache = cacheDeLecturas<Usuario | null>(ctx.db, { tablas: TABLAS_USUARIO, segundos: CACHE_SECONDS, max: 5_000, now: ctx.now });
  return {
    /** The user of claims that `sesiones.vigente` just confirmed, with those claims' groups. */
    async obtener(claims: AccessClaims): Promise<Usuario | null> {
      const usuario = await cache.leer(String(claims.sub), () => obtenerUsuario(ctx.db, claims.sub));
      return usuario && { ...usuario, groups: claims.groups };
    },
  };
}

export type UsuarioActual = ReturnType<typeof createUsuarioActual>;

/**
 * The signed-in person of a page request, as the top bar and the pages show them, cached: looking
 * them up took five queries per page (the user and four profile tables), most of a page's
 * database work; a miss is now the one prepared statement of `leerUsuario` (issue 36). What
 * decides access is not cached here: the caller has just asked `sesiones.vigente` (a 2 s bound)
 * whether the session holds and the user is active, and the groups come from that answer, so a
 * sign-out, a deactivation or a role change takes effect as before.
 * The displayed data is read again after any write to its tables in this process (db/cambios),
 * and after `CACHE_SECONDS` at most when other servers share the database.
 */
import type { AccessClaims } from '../auth/tokens.server.ts';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import { leerUsuario, TABLAS_USUARIO, type Usuario } from './usuarios.server.ts';

export const CACHE_SECONDS = 10;

/**
 * The person as pages see them: the contract's Usuario and the preferences a page applies as it
 * renders ('Ahorro de datos', issue 20: the capsule player and the list thumbnails).
 */
export type UsuarioPagina = Usuario & {
  ahorro_datos: boolean;
  /** The privacy notice's version the person accepted (issue 31): the pages ask again when it is not the current one. */
  privacidad_version: string | null;
  /** A confirmed second factor (issue 32): the pages send an admin without one to enrol while TOTP_ADMIN_OBLIGATORIO is on. */
  segundo_factor: boolean;
};

async function leerUsuarioPagina(db: Db, id: number): Promise<UsuarioPagina | null> {
  const leido = await leerUsuario(db, id);
  if (!leido) return null;
  const { usuario, row, segundo_factor } = leido;
  return { ...usuario, ahorro_datos: row.ahorro_datos, privacidad_version: row.privacidad_version, segundo_factor };
}

export function createUsuarioActual(ctx: { db: Db; now: () => Date }) {
  const cache = cacheDeLecturas<UsuarioPagina | null>(ctx.db, {
    tablas: TABLAS_USUARIO,
    segundos: CACHE_SECONDS,
    max: 5_000,
    now: ctx.now,
  });
  const leer = (id: number) => cache.leer(String(id), () => leerUsuarioPagina(ctx.db, id));
  return {
    /** The user of claims that `sesiones.vigente` just confirmed, with those claims' groups. */
    async obtener(claims: AccessClaims): Promise<UsuarioPagina | null> {
      const usuario = await leer(claims.sub);
      return usuario && { ...usuario, groups: claims.groups };
    },
    /** The same for a user a session renewal just answered (its groups are current). */
    async deSesion(usuario: Usuario): Promise<UsuarioPagina> {
      const pagina = await leer(usuario.id);
      return {
        ...usuario,
        ahorro_datos: pagina?.ahorro_datos ?? false,
        privacidad_version: pagina?.privacidad_version ?? null,
        segundo_factor: pagina?.segundo_factor ?? false,
      };
    },
  };
}

export type UsuarioActual = ReturnType<typeof createUsuarioActual>;

/**
 * The session of a page request, from its cookies: a valid access token, or else a refresh token
 * that is rotated on the spot (new cookies on the response), so a teacher whose access token
 * expired mid-work is not thrown out.
 */
import type { AstroCookies } from 'astro';
import { ApiError } from '../api/errors.server.ts';
import { ACCESS_COOKIE, type CookieSpec, clearedCookies, REFRESH_COOKIE, sessionCookies } from '../auth/cookies.server.ts';
import { verifyAccessToken } from '../auth/tokens.server.ts';
import { getRuntime } from '../runtime.server.ts';
import { obtenerUsuario, type Usuario } from '../services/usuarios.server.ts';

function apply(cookies: AstroCookies, specs: CookieSpec[]) {
  for (const { name, value, options } of specs) cookies.set(name, value, options);
}

export async function resolveSession(cookies: AstroCookies): Promise<Usuario | null> {
  const runtime = getRuntime();
  const { db } = runtime.database;
  const secure = runtime.config.PUBLIC_URL.startsWith('https:');
  const access = cookies.get(ACCESS_COOKIE)?.value;
  const claims = access ? verifyAccessToken(access, runtime.api.keys) : null;
  if (claims) {
    const usuario = await obtenerUsuario(db, claims.sub);
    if (usuario) return usuario;
  }
  const refresh = cookies.get(REFRESH_COOKIE)?.value;
  if (!refresh) return null;
  try {
    const sesion = await runtime.api.services.cuentas.renovar(refresh);
    apply(cookies, sessionCookies(sesion, secure));
    return sesion.usuario;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    apply(cookies, clearedCookies(secure));
    return null;
  }
}

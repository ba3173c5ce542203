/**
 * The session of a page request, from its cookies: an access token whose session still holds, or
 * else a refresh token that is rotated on the spot (new cookies on the response), so a teacher
 * whose access token expired mid-work is not thrown out, and one who signed out elsewhere is.
 */
import type { AstroCookies } from 'astro';
import type { Api } from '../api/app.server.ts';
import { ACCESS_COOKIE, applyCookies, type CookieSpec, REFRESH_COOKIE } from '../auth/cookies.server.ts';
import { verificarAcceso } from '../auth/tokens.server.ts';
import { getRuntime } from '../runtime.server.ts';
import type { UsuarioPagina } from '../services/usuario-actual.server.ts';

/** The part of Astro's cookies a session reads and writes. */
export interface SessionCookies {
  get(name: string): { value: string } | undefined;
  set(name: string, value: string, options: CookieSpec['options']): void;
}

export interface SessionDeps {
  api: Pick<Api, 'keys' | 'renovarSesion' | 'usuarioActual'>;
}

export async function sessionFromCookies(deps: SessionDeps, cookies: SessionCookies): Promise<UsuarioPagina | null> {
  const claims = await verificarAcceso(cookies.get(ACCESS_COOKIE)?.value, deps.api.keys);
  if (claims) {
    const usuario = await deps.api.usuarioActual.obtener(claims);
    if (usuario) return usuario;
  }
  const refresh = cookies.get(REFRESH_COOKIE)?.value;
  if (!refresh) return null;
  const renovada = await deps.api.renovarSesion(refresh);
  applyCookies((name, value, options) => cookies.set(name, value, options), renovada.cookies);
  return renovada.sesion ? deps.api.usuarioActual.deSesion(renovada.sesion.usuario) : null;
}

export function resolveSession(cookies: AstroCookies): Promise<UsuarioPagina | null> {
  return sessionFromCookies({ api: getRuntime().api }, cookies);
}

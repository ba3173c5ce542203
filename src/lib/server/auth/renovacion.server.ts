/**
 * Renewing a session from its refresh token: the one way the renewal route, the API's cookie
 * reads (img, video, downloads) and the page guard turn a refresh token into a new session. A
 * refused token ends the session where it is used (the cookies that clear it); any other failure
 * is the server's, and leaves the cookies alone.
 */
import { ApiError } from '../api/errors.server.ts';
import type { CuentasService, Sesion } from '../services/cuentas.server.ts';
import { type CookieSpec, clearedCookies, sessionCookies } from './cookies.server.ts';

export type Renovacion = { sesion: Sesion; cookies: CookieSpec[] } | { sesion: null; error: ApiError; cookies: CookieSpec[] };

/** Rotates a refresh token: the new session and its cookies, or the refusal and the cookies that clear it. */
export type RenovarSesion = (refresh: string) => Promise<Renovacion>;

export function renovador(cuentas: Pick<CuentasService, 'renovar'>, options: { secureCookies: boolean }): RenovarSesion {
  return async (refresh) => {
    try {
      const sesion = await cuentas.renovar(refresh);
      return { sesion, cookies: sessionCookies(sesion, options.secureCookies) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { sesion: null, error, cookies: clearedCookies(options.secureCookies) };
    }
  };
}

/** The session cookies, set identically by the API (sign-in, renewal) and by the page guard. */
import { ACCESS_COOKIE, REFRESH_COOKIE, SESSION_MARKER_COOKIE } from '../../api/cookies.ts';
import { ACCESS_TOKEN_SECONDS } from './tokens.server.ts';

export { ACCESS_COOKIE, REFRESH_COOKIE, SESSION_MARKER_COOKIE };

export interface CookieSpec {
  name: string;
  value: string;
  options: { path: '/'; secure: boolean; sameSite: 'lax'; httpOnly?: boolean; maxAge?: number; expires?: Date };
}

/**
 * The access token is readable by islands (sent as Bearer); the refresh token is httpOnly, and
 * the readable marker beside it, with the same lifetime, tells the islands it is there.
 */
export function sessionCookies(sesion: { access: string; refresh: string; refreshExpira: Date }, secure: boolean): CookieSpec[] {
  const base = { path: '/', secure, sameSite: 'lax' } as const;
  return [
    { name: ACCESS_COOKIE, value: sesion.access, options: { ...base, maxAge: ACCESS_TOKEN_SECONDS } },
    { name: REFRESH_COOKIE, value: sesion.refresh, options: { ...base, httpOnly: true, expires: sesion.refreshExpira } },
    { name: SESSION_MARKER_COOKIE, value: '1', options: { ...base, expires: sesion.refreshExpira } },
  ];
}

export function clearedCookies(secure: boolean): CookieSpec[] {
  const base = { path: '/', secure, sameSite: 'lax' } as const;
  return [
    { name: ACCESS_COOKIE, value: '', options: { ...base, maxAge: 0 } },
    { name: REFRESH_COOKIE, value: '', options: { ...base, httpOnly: true, maxAge: 0 } },
    { name: SESSION_MARKER_COOKIE, value: '', options: { ...base, maxAge: 0 } },
  ];
}

/** Writes cookie specs through a framework's setter (Hono's `setCookie`, Astro's `cookies.set`). */
export function applyCookies(set: (name: string, value: string, options: CookieSpec['options']) => void, specs: CookieSpec[]): void {
  for (const { name, value, options } of specs) set(name, value, options);
}

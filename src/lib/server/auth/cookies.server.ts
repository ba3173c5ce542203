/** The session cookies, set identically by the API (sign-in, renewal) and by the page guard. */
import { ACCESS_TOKEN_SECONDS } from './tokens.server.ts';

export const ACCESS_COOKIE = 'ed_access';
export const REFRESH_COOKIE = 'ed_refresh';

export interface CookieSpec {
  name: string;
  value: string;
  options: { path: '/'; secure: boolean; sameSite: 'lax'; httpOnly?: boolean; maxAge?: number; expires?: Date };
}

/** The access token is readable by islands (sent as Bearer); the refresh token is httpOnly. */
export function sessionCookies(sesion: { access: string; refresh: string; refreshExpira: Date }, secure: boolean): CookieSpec[] {
  const base = { path: '/', secure, sameSite: 'lax' } as const;
  return [
    { name: ACCESS_COOKIE, value: sesion.access, options: { ...base, maxAge: ACCESS_TOKEN_SECONDS } },
    { name: REFRESH_COOKIE, value: sesion.refresh, options: { ...base, httpOnly: true, expires: sesion.refreshExpira } },
  ];
}

export function clearedCookies(secure: boolean): CookieSpec[] {
  const base = { path: '/', secure, sameSite: 'lax' } as const;
  return [
    { name: ACCESS_COOKIE, value: '', options: { ...base, maxAge: 0 } },
    { name: REFRESH_COOKIE, value: '', options: { ...base, httpOnly: true, maxAge: 0 } },
  ];
}

/** POST /auth/login/, /auth/logout/, /auth/renovar_token/ (SPEC.md section 7). */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { loginSchema } from '../../validation/cuentas.ts';
import { type CookieSpec, clearedCookies, REFRESH_COOKIE, sessionCookies } from '../auth/cookies.server.ts';
import type { CuentasService, Sesion } from '../services/cuentas.server.ts';
import { type AppEnv, clientAddress, type RenovarSesion } from './env.server.ts';
import { ApiError } from './errors.server.ts';
import { body } from './input.server.ts';

const refreshBody = z.object({ refresh: z.string().max(200).optional() });

export function authRoutes(cuentas: CuentasService, options: { secureCookies: boolean }) {
  const set = (c: Context<AppEnv>, cookies: CookieSpec[]) => {
    for (const { name, value, options: o } of cookies) setCookie(c, name, value, o);
  };

  function guardarSesion(c: Context<AppEnv>, sesion: Sesion) {
    set(c, sessionCookies(sesion, options.secureCookies));
    return c.json({ statusCode: 200 as const, access: sesion.access, refresh: sesion.refresh, usuario: sesion.usuario }, 200);
  }

  const borrarSesion = (c: Context<AppEnv>) => set(c, clearedCookies(options.secureCookies));

  return new Hono<AppEnv>({ strict: false })
    .post('/login', body(loginSchema), async (c) => guardarSesion(c, await cuentas.login(c.req.valid('json'), clientAddress(c))))
    .post('/renovar_token', body(refreshBody), async (c) => {
      const refresh = c.req.valid('json').refresh ?? getCookie(c, REFRESH_COOKIE);
      try {
        return guardarSesion(c, await cuentas.renovar(refresh ?? ''));
      } catch (error) {
        borrarSesion(c);
        throw error;
      }
    })
    .post('/logout', body(refreshBody), async (c) => {
      await cuentas.logout(c.req.valid('json').refresh ?? getCookie(c, REFRESH_COOKIE));
      borrarSesion(c);
      return c.json({ statusCode: 200 as const, detail: 'Sesión cerrada' }, 200);
    });
}

/** The session renewal `autenticado` uses on cookie reads once the access cookie has expired. */
export function renovarConCookie(cuentas: CuentasService, options: { secureCookies: boolean }): RenovarSesion {
  return async (refresh) => {
    try {
      const sesion = await cuentas.renovar(refresh);
      return { access: sesion.access, cookies: sessionCookies(sesion, options.secureCookies) };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { access: null, cookies: clearedCookies(options.secureCookies) };
    }
  };
}

/** POST /auth/login/, /auth/logout/, /auth/renovar_token/ (docs/SPEC.md section 7). */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { loginSchema } from '../../validation/cuentas.ts';
import { applyCookies, type CookieSpec, clearedCookies, REFRESH_COOKIE, sessionCookies } from '../auth/cookies.server.ts';
import type { RenovarSesion } from '../auth/renovacion.server.ts';
import type { BajaService } from '../services/baja.server.ts';
import type { CuentasService, Sesion } from '../services/cuentas.server.ts';
import { entrada, responder } from './contrato.server.ts';
import { type AppEnv, clientAddress } from './env.server.ts';
import { body, bodyJson } from './input.server.ts';

const refreshBody = z.object({ refresh: z.string().max(200).optional() });
const loginEntrada = entrada('POST /auth/login/', loginSchema);
const renovarEntrada = entrada('POST /auth/renovar_token/', refreshBody);
const logoutEntrada = entrada('POST /auth/logout/', refreshBody);

export function authRoutes(
  cuentas: CuentasService,
  renovarSesion: RenovarSesion,
  options: { secureCookies: boolean; baja: Pick<BajaService, 'alIngresar'> },
) {
  const set = (c: Context<AppEnv>, cookies: CookieSpec[]) => applyCookies((name, value, o) => setCookie(c, name, value, o), cookies);

  /** Sets the session's cookies and gives the body that sign-in and renewal answer. */
  function guardarSesion(c: Context<AppEnv>, sesion: Sesion) {
    set(c, sessionCookies(sesion, options.secureCookies));
    return { statusCode: 200 as const, access: sesion.access, refresh: sesion.refresh, usuario: sesion.usuario };
  }

  // Sign-in takes JSON only: a form posted from another site must not sign anyone in (issue 32).
  return new Hono<AppEnv>({ strict: false })
    .post('/login', bodyJson(loginEntrada), async (c) => {
      const sesion = await cuentas.login(c.req.valid('json'), clientAddress(c), c.req.header('user-agent'));
      // Signing in cancels a scheduled deletion (issue 31): the person is told so after signing in.
      const aviso = await options.baja.alIngresar(sesion.usuario.id);
      return responder(c, 'POST /auth/login/', 200, { ...guardarSesion(c, sesion), ...(aviso ? { aviso } : {}) });
    })
    .post('/renovar_token', body(renovarEntrada), async (c) => {
      const refresh = c.req.valid('json').refresh ?? getCookie(c, REFRESH_COOKIE) ?? '';
      const renovada = await renovarSesion(refresh);
      if (renovada.sesion) return responder(c, 'POST /auth/renovar_token/', 200, guardarSesion(c, renovada.sesion));
      // Answered, not thrown: the error handler builds a new response, without the cleared cookies.
      set(c, renovada.cookies);
      const { status, body: error, headers } = renovada.error;
      return c.json(error, status, headers);
    })
    .post('/logout', body(logoutEntrada), async (c) => {
      await cuentas.logout(c.req.valid('json').refresh ?? getCookie(c, REFRESH_COOKIE));
      set(c, clearedCookies(options.secureCookies));
      return responder(c, 'POST /auth/logout/', 200, { statusCode: 200, detail: 'Sesión cerrada' });
    });
}

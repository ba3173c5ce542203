/**
 * POST /auth/login/, /auth/logout/, /auth/renovar_token/ (docs/SPEC.md section 7) and the second
 * step of a sign-in with a second factor, POST /auth/segundo-factor/ (issue 32).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { loginSchema } from '../../validation/cuentas.ts';
import { segundoFactorSchema } from '../../validation/segundo-factor.ts';
import { applyCookies, type CookieSpec, clearedCookies, REFRESH_COOKIE, sessionCookies } from '../auth/cookies.server.ts';
import type { RenovarSesion } from '../auth/renovacion.server.ts';
import type { BajaService } from '../services/baja.server.ts';
import type { CuentasService, Sesion } from '../services/cuentas.server.ts';
import type { EquipoRecordado, SegundoFactorService } from '../services/segundo-factor.server.ts';
import { entrada, responder } from './contrato.server.ts';
import { type AppEnv, origenIngreso } from './env.server.ts';
import { body, bodyJson } from './input.server.ts';

const refreshBody = z.object({ refresh: z.string().max(200).optional() });
const loginEntrada = entrada('POST /auth/login/', loginSchema);
const renovarEntrada = entrada('POST /auth/renovar_token/', refreshBody);
const logoutEntrada = entrada('POST /auth/logout/', refreshBody);
const segundoFactorEntrada = entrada('POST /auth/segundo-factor/', segundoFactorSchema);

/**
 * 'Recordar este equipo 30 días' (issue 32): httpOnly, sent only to /auth/ (the sign-in and the
 * OpenID Connect callback, a top-level navigation: hence Lax), bound to the account server-side.
 */
export const EQUIPO_COOKIE = 'ed_equipo';

export function authRoutes(
  cuentas: CuentasService,
  renovarSesion: RenovarSesion,
  options: {
    secureCookies: boolean;
    baja: Pick<BajaService, 'alIngresar'>;
    segundoFactor: Pick<SegundoFactorService, 'trasVerificarIdentidad' | 'completarDesafio'>;
  },
) {
  const set = (c: Context<AppEnv>, cookies: CookieSpec[]) => applyCookies((name, value, o) => setCookie(c, name, value, o), cookies);

  /** Sets the session's cookies and gives the body that sign-in and renewal answer. */
  function guardarSesion(c: Context<AppEnv>, sesion: Sesion) {
    set(c, sessionCookies(sesion, options.secureCookies));
    return { statusCode: 200 as const, access: sesion.access, refresh: sesion.refresh, usuario: sesion.usuario };
  }

  /** A sign-in's answer: the session, and the notice when signing in cancelled a scheduled deletion (issue 31). */
  async function ingreso(c: Context<AppEnv>, sesion: Sesion) {
    const aviso = await options.baja.alIngresar(sesion.usuario.id);
    return { ...guardarSesion(c, sesion), ...(aviso ? { aviso } : {}) };
  }

  function recordarEquipo(c: Context<AppEnv>, equipo: EquipoRecordado) {
    setCookie(c, EQUIPO_COOKIE, equipo.token, {
      path: '/auth/',
      httpOnly: true,
      secure: options.secureCookies,
      sameSite: 'Lax',
      expires: equipo.expira,
    });
  }

  // Sign-in takes JSON only: a form posted from another site must not sign anyone in (issue 32).
  return new Hono<AppEnv>({ strict: false })
    .post('/login', bodyJson(loginEntrada), async (c) => {
      const origen = origenIngreso(c, 'password');
      const usuario = await cuentas.verificarCredenciales(c.req.valid('json'), origen.direccion);
      const paso = await options.segundoFactor.trasVerificarIdentidad(usuario, origen, getCookie(c, EQUIPO_COOKIE));
      if (paso.segundo_factor) {
        const desafio = {
          statusCode: 200 as const,
          segundo_factor: true as const,
          desafio: paso.desafio,
          expira: paso.expira.toISOString(),
        };
        return responder(c, 'POST /auth/login/', 200, desafio);
      }
      return responder(c, 'POST /auth/login/', 200, await ingreso(c, paso.sesion));
    })
    .post('/segundo-factor', bodyJson(segundoFactorEntrada), async (c) => {
      const origen = origenIngreso(c, 'password');
      const { sesion, equipo } = await options.segundoFactor.completarDesafio(c.req.valid('json'), origen);
      if (equipo) recordarEquipo(c, equipo);
      return responder(c, 'POST /auth/segundo-factor/', 200, await ingreso(c, sesion));
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

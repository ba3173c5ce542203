/**
 * Sign-in with a school account (issue 32, decision 0063):
 * - GET /auth/oidc/{id}/ starts the flow (with `?siguiente=`, kept through destinoSeguro; with
 *   `?vincular=1` a signed-in person links the provider to their account) and sends the browser
 *   to the provider, with the flow's handle in a short-lived httpOnly cookie;
 * - GET /auth/oidc/{id}/callback ends it: on `siguiente` (or /) with the same cookies as a
 *   password sign-in, or on /ingresar/ with `?error_oidc=` (a code the page puts in words) and no session;
 * - GET /api/usuarios/{id}/identidades/ lists the person's linked providers and DELETE
 *   /api/usuarios/{id}/identidades/{proveedor}/ unlinks one (never the last way in).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import { destinoSeguro } from '../../destino.ts';
import { ACCESS_COOKIE, applyCookies, sessionCookies } from '../auth/cookies.server.ts';
import { ID_PROVEEDOR } from '../auth/oidc-proveedores.server.ts';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import { BAJA_CANCELADA_AL_INGRESAR, type BajaService } from '../services/baja.server.ts';
import { type FinOidc, FLUJO_SEGUNDOS, type OidcService, RechazoOidc } from '../services/oidc.server.ts';
import type { SegundoFactorService } from '../services/segundo-factor.server.ts';
import { EQUIPO_COOKIE } from './auth.server.ts';
import { responder } from './contrato.server.ts';
import { type AppEnv, autenticado, mismoUsuario, origenIngreso } from './env.server.ts';
import { params } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

/** The flow's handle: only the callback's path gets it back. */
export const FLUJO_COOKIE = 'ed_oidc';
const RUTA_FLUJO = '/auth/oidc/';

const identidadParam = z.object({ id: id(), proveedor: z.string().regex(ID_PROVEEDOR, 'Proveedor no válido') });

export interface OidcDeps {
  oidc: OidcService;
  /** The same decision as after a password: a second factor's challenge, when the account has one. */
  segundoFactor: Pick<SegundoFactorService, 'trasVerificarIdentidad'>;
  /** A sign-in cancels a scheduled deletion (issue 31), as after a password. */
  baja: Pick<BajaService, 'alIngresar'>;
  keys: TokenKeys;
  secureCookies: boolean;
  publicUrl: string;
}

export function oidcRoutes(deps: OidcDeps) {
  const { oidc, keys } = deps;
  const base = { path: RUTA_FLUJO, httpOnly: true, sameSite: 'Lax', secure: deps.secureCookies } as const;

  /** Back to the screen that tells what went wrong, with no session. */
  function rechazo(c: Context<AppEnv>, error: RechazoOidc) {
    if (error.vincular) return c.redirect(`/perfil/cuentas-vinculadas?error_oidc=${error.codigo}`, 303);
    const siguiente = error.siguiente !== '/' ? `&siguiente=${encodeURIComponent(error.siguiente)}` : '';
    return c.redirect(`/ingresar/?error_oidc=${error.codigo}${siguiente}`, 303);
  }

  async function fin(c: Context<AppEnv>, resultado: FinOidc) {
    if (resultado.tipo === 'vinculada') return c.redirect(`/perfil/cuentas-vinculadas?vinculada=${resultado.proveedor}`, 303);
    const origen = origenIngreso(c, resultado.via);
    const paso = await deps.segundoFactor.trasVerificarIdentidad(resultado.usuario, origen, getCookie(c, EQUIPO_COOKIE));
    if (paso.segundo_factor) {
      // The code is asked on the sign-in screen, as after a password: the challenge goes in the
      // fragment, which the island reads and the browser never sends to a server or a Referer.
      const siguiente = resultado.destino === '/' ? '' : `?siguiente=${encodeURIComponent(resultado.destino)}`;
      return c.redirect(`/ingresar/${siguiente}#desafio=${encodeURIComponent(paso.desafio)}`, 303);
    }
    applyCookies((name, value, o) => setCookie(c, name, value, o), sessionCookies(paso.sesion, deps.secureCookies));
    // Signing in cancelled a scheduled deletion: the page that says so, and where to schedule it again.
    if (await deps.baja.alIngresar(paso.sesion.usuario.id)) return c.redirect(BAJA_CANCELADA_AL_INGRESAR, 303);
    return c.redirect(resultado.destino, 303);
  }

  return new Hono<AppEnv>({ strict: false })
    .get('/:proveedor', async (c) => {
      const destino = destinoSeguro(c.req.query('siguiente'), deps.publicUrl);
      try {
        let vincular: number | undefined;
        if (c.req.query('vincular') !== undefined) {
          const claims = await verificarAcceso(getCookie(c, ACCESS_COOKIE), keys);
          if (!claims) throw new RechazoOidc('sin_sesion', false, '/perfil/cuentas-vinculadas');
          vincular = claims.sub;
        }
        const { url, handle } = await oidc.iniciar(c.req.param('proveedor'), { destino, vincular });
        setCookie(c, FLUJO_COOKIE, handle, { ...base, maxAge: FLUJO_SEGUNDOS });
        return c.redirect(url.toString(), 303);
      } catch (error) {
        if (error instanceof RechazoOidc) return rechazo(c, error);
        throw error;
      }
    })
    .get('/:proveedor/callback', async (c) => {
      const handle = getCookie(c, FLUJO_COOKIE);
      // The handle serves one callback, whatever it ends in.
      deleteCookie(c, FLUJO_COOKIE, base);
      try {
        return await fin(c, await oidc.completar(c.req.param('proveedor'), new URL(c.req.url), handle));
      } catch (error) {
        if (error instanceof RechazoOidc) return rechazo(c, error);
        throw error;
      }
    });
}

/** The person's linked providers, and unlinking one. */
export function identidadesRoutes(deps: { oidc: OidcService; keys: TokenKeys }) {
  const { oidc, keys } = deps;
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/identidades', autenticado(keys), params(idParam), async (c) => {
      const { id: idUsuario } = c.req.valid('param');
      mismoUsuario(c, idUsuario);
      const vinculadas = await oidc.vinculadas(idUsuario);
      const disponibles = oidc.proveedores().map((p) => ({ id: p.id, nombre: p.nombre }));
      return responder(c, 'GET /api/usuarios/{id}/identidades/', 200, { identidades: vinculadas, proveedores: disponibles });
    })
    .delete('/:id/identidades/:proveedor', autenticado(keys), params(identidadParam), async (c) => {
      const { id: idUsuario, proveedor } = c.req.valid('param');
      mismoUsuario(c, idUsuario);
      await oidc.desvincular(idUsuario, proveedor);
      return responder(c, 'DELETE /api/usuarios/{id}/identidades/{proveedor}/', 200, { detail: 'Cuenta desvinculada' });
    });
}

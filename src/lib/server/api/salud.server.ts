/**
 * GET /healthz (readiness: this process and its database) and GET /healthz/detalle (everything,
 * for alerting and the admin console), issue 28, docs/decisions/0050.
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { ACCESS_COOKIE } from '../auth/cookies.server.ts';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import type { Health } from '../jobs/salud.server.ts';
import { esAdmin } from '../services/actor.server.ts';
import { ADMIN_KEY_HEADER, mismoSecreto } from './acceso-admin.server.ts';
import { responder } from './contrato.server.ts';
import type { AppEnv } from './env.server.ts';
import { noAutenticado, sinPermisos } from './errors.server.ts';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

export function saludRoutes(deps: { health: Health; keys: TokenKeys; adminKey: string }) {
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => {
    const salud = await deps.health.listo();
    return salud.status === 'ok'
      ? responder(c, 'GET /healthz', 200, { ...salud, status: 'ok' })
      : responder(c, 'GET /healthz', 503, { ...salud, status: 'degraded' });
  });

  app.get('/detalle', async (c) => {
    const clave = c.req.header(ADMIN_KEY_HEADER);
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    const token = m?.[1] ?? getCookie(c, ACCESS_COOKIE);
    // The machine itself (a monitoring agent, curl on the server): a loopback peer that no proxy
    // forwarded. A reverse proxy on the same machine adds X-Forwarded-For or Forwarded.
    const local = LOOPBACK.test(c.env?.clientAddress ?? '') && !c.req.header('x-forwarded-for') && !c.req.header('forwarded');
    if (clave !== undefined) {
      if (!mismoSecreto(clave, deps.adminKey)) throw sinPermisos();
    } else if (token !== undefined) {
      const claims = await verificarAcceso(token, deps.keys);
      if (!claims && !local) throw noAutenticado();
      if (claims && !esAdmin(claims) && !local) throw sinPermisos();
    } else if (!local) throw noAutenticado();
    const salud = await deps.health.detalle();
    return salud.status === 'ok'
      ? responder(c, 'GET /healthz/detalle', 200, { ...salud, status: 'ok' })
      : responder(c, 'GET /healthz/detalle', 503, { ...salud, status: 'degraded' });
  });

  return app;
}

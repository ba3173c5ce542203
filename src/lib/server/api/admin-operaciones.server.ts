/**
 * /api/admin/trabajos/, /api/admin/correos/ and /api/admin/estadisticas/ (issue 16): the admin
 * console's background jobs and mail outbox (each with a retry of a failed one) and its usage
 * statistics. Admins only (bearer token of group 'admin' or `X-Admin-Key`).
 */
import { Hono } from 'hono';
import { filtrosCorreosSchema } from '../../validation/admin-operaciones.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { AdminOperacionesService } from '../services/admin-operaciones.server.ts';
import { type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { consulta, responder } from './contrato.server.ts';
import { params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

export function adminOperacionesRoutes(deps: { adminOperaciones: AdminOperacionesService; keys: TokenKeys; adminKey: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const { adminOperaciones } = deps;
  return new Hono<AdminEnv>({ strict: false })
    .get('/trabajos', soloAdmin, async (c) => responder(c, 'GET /api/admin/trabajos/', 200, await adminOperaciones.trabajos()))
    .post('/trabajos/:id/reintentar', soloAdmin, params(idParam), async (c) =>
      responder(
        c,
        'POST /api/admin/trabajos/{id}/reintentar/',
        200,
        await adminOperaciones.reintentarTrabajo(c.var.adminActor, c.req.valid('param').id),
      ),
    )
    .get('/correos', soloAdmin, query(consulta('GET /api/admin/correos/', filtrosCorreosSchema)), async (c) =>
      responder(c, 'GET /api/admin/correos/', 200, await adminOperaciones.correos(c.req.valid('query'))),
    )
    .post('/correos/:id/reintentar', soloAdmin, params(idParam), async (c) =>
      responder(
        c,
        'POST /api/admin/correos/{id}/reintentar/',
        200,
        await adminOperaciones.reintentarCorreo(c.var.adminActor, c.req.valid('param').id),
      ),
    )
    .get('/estadisticas', soloAdmin, async (c) => responder(c, 'GET /api/admin/estadisticas/', 200, await adminOperaciones.estadisticas()));
}

/**
 * Reports and the moderation queue (issue 17): POST /api/denuncias/ for anyone signed in;
 * GET /api/admin/denuncias/ and POST /api/admin/denuncias/{id}/resolver/ for admins (bearer token
 * of group 'admin' or `X-Admin-Key`).
 */
import { Hono } from 'hono';
import { denunciaSchema, listaDenunciasQuery, resolucionSchema } from '../../validation/denuncias.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { DenunciasService } from '../services/denuncias.server.ts';
import { type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { consulta, entrada, responder } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

export function denunciasRoutes(denuncias: DenunciasService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false }).post(
    '/',
    autenticado(keys),
    body(entrada('POST /api/denuncias/', denunciaSchema)),
    async (c) => responder(c, 'POST /api/denuncias/', 201, await denuncias.denunciar(actor(c), c.req.valid('json'))),
  );
}

export function adminDenunciasRoutes(deps: { denuncias: DenunciasService; keys: TokenKeys; adminKey: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const { denuncias } = deps;
  return new Hono<AdminEnv>({ strict: false })
    .get('/denuncias', soloAdmin, query(consulta('GET /api/admin/denuncias/', listaDenunciasQuery)), async (c) =>
      responder(c, 'GET /api/admin/denuncias/', 200, await denuncias.listar(c.req.valid('query'))),
    )
    .post(
      '/denuncias/:id/resolver',
      soloAdmin,
      params(idParam),
      body(entrada('POST /api/admin/denuncias/{id}/resolver/', resolucionSchema)),
      async (c) =>
        responder(
          c,
          'POST /api/admin/denuncias/{id}/resolver/',
          200,
          await denuncias.resolver(c.var.adminActor, c.req.valid('param').id, c.req.valid('json')),
        ),
    );
}

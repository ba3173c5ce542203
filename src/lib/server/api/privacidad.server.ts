/**
 * The privacy notice (issue 31, decision 0057): its facts for anyone (GET /api/privacidad/), the
 * signed-in person's acceptance (POST /api/privacidad/aceptar/) and the responsible party an admin
 * sets (PUT /api/admin/privacidad/).
 */
import { Hono } from 'hono';
import { PRIVACIDAD_VERSION, responsableSchema } from '../../validation/privacidad.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { origenDe } from '../services/cuentas.server.ts';
import type { PrivacidadService } from '../services/privacidad.server.ts';
import { type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { entrada, responder } from './contrato.server.ts';
import { type AppEnv, autenticado, clientAddress } from './env.server.ts';
import { body } from './input.server.ts';

const responsableEntrada = entrada('PUT /api/admin/privacidad/', responsableSchema);

export function privacidadRoutes(privacidad: PrivacidadService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .get('/', async (c) =>
      responder(c, 'GET /api/privacidad/', 200, {
        version: PRIVACIDAD_VERSION,
        responsable: await privacidad.responsable(),
        retencion_direcciones_dias: privacidad.retencionDias,
      }),
    )
    .post('/aceptar', autenticado(keys), async (c) =>
      responder(
        c,
        'POST /api/privacidad/aceptar/',
        200,
        await privacidad.aceptar(c.var.auth.sub, origenDe(clientAddress(c), undefined).ip),
      ),
    );
}

export function adminPrivacidadRoutes(deps: { privacidad: PrivacidadService; keys: TokenKeys; adminKey: string }) {
  return new Hono<AdminEnv>({ strict: false }).put('/privacidad', soloAdminOClave(deps), body(responsableEntrada), async (c) =>
    responder(c, 'PUT /api/admin/privacidad/', 200, await deps.privacidad.guardarResponsable(c.var.adminActor, c.req.valid('json'))),
  );
}

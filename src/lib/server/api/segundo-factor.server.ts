/**
 * A person's second factor (issue 32): GET, POST and DELETE /api/usuarios/{id}/totp/ and
 * POST /api/usuarios/{id}/totp/confirmar/, the person themself only (an admin cannot enrol or
 * remove anyone's); and the admins' reset, DELETE /api/admin/usuarios/{id}/totp/.
 */
import { Hono } from 'hono';
import { codigoSchema } from '../../validation/segundo-factor.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { SegundoFactorService } from '../services/segundo-factor.server.ts';
import { type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { entrada, responder } from './contrato.server.ts';
import { type AppEnv, autenticado, clientAddress } from './env.server.ts';
import { bodyJson, params } from './input.server.ts';
import { idParam } from './schemas.server.ts';

const confirmarEntrada = entrada('POST /api/usuarios/{id}/totp/confirmar/', codigoSchema);
const quitarEntrada = entrada('DELETE /api/usuarios/{id}/totp/', codigoSchema);

export function segundoFactorRoutes(deps: { segundoFactor: SegundoFactorService; keys: TokenKeys }) {
  const { segundoFactor, keys } = deps;
  // The service refuses another person's id (403): enrolling is the person's alone, admins included.
  const actor = (c: { var: AppEnv['Variables'] }) => ({ id: c.var.auth.sub });
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/totp', autenticado(keys), params(idParam), async (c) =>
      responder(c, 'GET /api/usuarios/{id}/totp/', 200, await segundoFactor.estado(actor(c), c.req.valid('param').id)),
    )
    .post('/:id/totp', autenticado(keys), params(idParam), async (c) =>
      responder(c, 'POST /api/usuarios/{id}/totp/', 200, await segundoFactor.iniciar(actor(c), c.req.valid('param').id)),
    )
    .delete('/:id/totp', autenticado(keys), params(idParam), bodyJson(quitarEntrada), async (c) => {
      await segundoFactor.quitar(actor(c), c.req.valid('param').id, c.req.valid('json').codigo, clientAddress(c));
      return responder(c, 'DELETE /api/usuarios/{id}/totp/', 200, { detail: 'Quitaste la verificación en dos pasos.' });
    })
    .post('/:id/totp/confirmar', autenticado(keys), params(idParam), bodyJson(confirmarEntrada), async (c) => {
      const { id } = c.req.valid('param');
      const respuesta = await segundoFactor.confirmar(actor(c), id, c.req.valid('json').codigo, clientAddress(c));
      return responder(c, 'POST /api/usuarios/{id}/totp/confirmar/', 200, respuesta);
    });
}

/** DELETE /api/admin/usuarios/{id}/totp/: an admin (or the local admin key) resets a person's second factor. */
export function adminSegundoFactorRoutes(deps: { segundoFactor: SegundoFactorService; keys: TokenKeys; adminKey: string }) {
  return new Hono<AdminEnv>({ strict: false }).delete('/usuarios/:id/totp', soloAdminOClave(deps), params(idParam), async (c) => {
    await deps.segundoFactor.reiniciar(c.var.adminActor, c.req.valid('param').id);
    return responder(c, 'DELETE /api/admin/usuarios/{id}/totp/', 200, {
      detail: 'Reiniciamos la verificación en dos pasos. La persona ingresará solo con su contraseña hasta que la vuelva a activar.',
    });
  });
}

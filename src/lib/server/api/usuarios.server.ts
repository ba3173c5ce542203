/** Activation, password reset and change, and the help centre, under /api/usuarios (docs/SPEC.md 7). */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  activacionConTokenSchema,
  ayudaSchema,
  nuevaContrasenaConTokenSchema,
  recuperarCuentaSchema,
  tokenSchema,
} from '../../validation/cuentas.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { createAyudaService } from '../services/ayuda.server.ts';
import type { CuentasService } from '../services/cuentas.server.ts';
import { consulta, entrada, responder } from './contrato.server.ts';
import { type AppEnv, autenticado, clientAddress, mismoUsuario } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const tokenQuery = z.object({ token: tokenSchema });

export function usuariosRoutes(deps: { cuentas: CuentasService; ayuda: ReturnType<typeof createAyudaService>; keys: TokenKeys }) {
  const { cuentas, ayuda } = deps;
  return new Hono<AppEnv>({ strict: false })
    .get('/activar-cuenta', query(consulta('GET /api/usuarios/activar-cuenta/', tokenQuery)), async (c) =>
      responder(c, 'GET /api/usuarios/activar-cuenta/', 200, await cuentas.verificarActivacion(c.req.valid('query').token)),
    )
    .post('/activar-cuenta', body(entrada('POST /api/usuarios/activar-cuenta/', activacionConTokenSchema)), async (c) => {
      const input = c.req.valid('json');
      const { email } = await cuentas.activar(input.token, input.password, clientAddress(c));
      return responder(c, 'POST /api/usuarios/activar-cuenta/', 200, { detail: 'Cuenta activada exitosamente', email });
    })
    .post('/recuperar-cuenta', body(entrada('POST /api/usuarios/recuperar-cuenta/', recuperarCuentaSchema)), async (c) => {
      const { email } = await cuentas.solicitarRecuperacion(c.req.valid('json').email, clientAddress(c));
      const detail = `Se envió un correo a ${email} con las instrucciones para cambiar tu contraseña`;
      return responder(c, 'POST /api/usuarios/recuperar-cuenta/', 200, { detail });
    })
    .get('/cambiar-contrasena/:token', params(tokenQuery), async (c) =>
      responder(c, 'GET /api/usuarios/cambiar-contrasena/{token}', 200, await cuentas.verificarRecuperacion(c.req.valid('param').token)),
    )
    .post('/cambiar-contrasena', body(entrada('POST /api/usuarios/cambiar-contrasena/', nuevaContrasenaConTokenSchema)), async (c) => {
      const input = c.req.valid('json');
      await cuentas.cambiarContrasena(input.token, input.password);
      return responder(c, 'POST /api/usuarios/cambiar-contrasena/', 200, { detail: 'Contraseña cambiada exitosamente!' });
    })
    .post(
      '/:id/enviar-email-ayuda',
      autenticado(deps.keys),
      params(idParam),
      body(entrada('POST /api/usuarios/{id}/enviar-email-ayuda/', ayudaSchema.extend({ id_usuario_sender: id().optional() }))),
      async (c) => {
        const { id: pathId } = c.req.valid('param');
        const input = c.req.valid('json');
        mismoUsuario(c, pathId);
        if (input.id_usuario_sender !== undefined) mismoUsuario(c, input.id_usuario_sender);
        await ayuda.enviar(pathId, input);
        return responder(c, 'POST /api/usuarios/{id}/enviar-email-ayuda/', 200, { detail: 'Enviado' });
      },
    );
}

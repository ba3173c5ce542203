/** Activation, password reset and change, and the help centre, under /api/usuarios (SPEC.md 7). */
import { Hono } from 'hono';
import { z } from 'zod';
import { ayudaSchema, nuevaContrasenaConTokenSchema, recuperarCuentaSchema, tokenSchema } from '../../validation/cuentas.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { createAyudaService } from '../services/ayuda.server.ts';
import type { CuentasService } from '../services/cuentas.server.ts';
import { type AppEnv, autenticado, clientAddress, mismoUsuario } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const tokenQuery = z.object({ token: tokenSchema });

export function usuariosRoutes(deps: { cuentas: CuentasService; ayuda: ReturnType<typeof createAyudaService>; keys: TokenKeys }) {
  const { cuentas, ayuda } = deps;
  return new Hono<AppEnv>({ strict: false })
    .get('/activar-cuenta', query(tokenQuery), async (c) => c.json(await cuentas.verificarActivacion(c.req.valid('query').token), 200))
    .post('/activar-cuenta', body(nuevaContrasenaConTokenSchema), async (c) => {
      const input = c.req.valid('json');
      const { email } = await cuentas.activar(input.token, input.password);
      return c.json({ detail: 'Cuenta activada exitosamente', email }, 200);
    })
    .post('/recuperar-cuenta', body(recuperarCuentaSchema), async (c) => {
      const { email } = await cuentas.solicitarRecuperacion(c.req.valid('json').email, clientAddress(c));
      return c.json({ detail: `Se envió un correo a ${email} con las instrucciones para cambiar su contraseña` }, 200);
    })
    .get('/cambiar-contrasena/:token', params(tokenQuery), async (c) =>
      c.json(await cuentas.verificarRecuperacion(c.req.valid('param').token), 200),
    )
    .post('/cambiar-contrasena', body(nuevaContrasenaConTokenSchema), async (c) => {
      const input = c.req.valid('json');
      await cuentas.cambiarContrasena(input.token, input.password);
      return c.json({ detail: 'Contraseña cambiada exitosamente!' }, 200);
    })
    .post(
      '/:id/enviar-email-ayuda',
      autenticado(deps.keys),
      params(idParam),
      body(ayudaSchema.extend({ id_usuario_sender: id().optional() })),
      async (c) => {
        const { id: pathId } = c.req.valid('param');
        const input = c.req.valid('json');
        mismoUsuario(c, pathId);
        if (input.id_usuario_sender !== undefined) mismoUsuario(c, input.id_usuario_sender);
        await ayuda.enviar(pathId, input);
        return c.json({ detail: 'Enviado' }, 200);
      },
    );
}

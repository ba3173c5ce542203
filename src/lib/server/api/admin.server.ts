/**
 * POST /api/admin/usuarios/: creates an account and sends its activation email;
 * POST /api/admin/usuarios/{id}/reenviar-activacion/ (or by email, for the CLI) sends a fresh
 * link. Used by admins and by `npm run usuarios` while the server runs (PGlite admits one process, so the CLI talks to
 * the running server with the local admin key from DATA_DIR instead of opening the database).
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import { invitacionSchema } from '../../validation/invitacion.ts';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import { esAdmin } from '../services/actor.server.ts';
import type { createInvitacionesService } from '../services/invitaciones.server.ts';
import { entrada, responder } from './contrato.server.ts';
import type { AppEnv } from './env.server.ts';
import { noAutenticado, sinPermisos } from './errors.server.ts';
import { body, params } from './input.server.ts';
import { idParam } from './schemas.server.ts';

/** The CLI resends by email (it knows no ids). */
const reenvioSchema = z.object({ email: invitacionSchema.shape.email });

export const ADMIN_KEY_HEADER = 'x-admin-key';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function adminRoutes(deps: { invitaciones: ReturnType<typeof createInvitacionesService>; keys: TokenKeys; adminKey: string }) {
  const soloAdmin = createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header(ADMIN_KEY_HEADER);
    if (key !== undefined) {
      if (!sameSecret(key, deps.adminKey)) throw sinPermisos();
      return next();
    }
    const m = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
    const claims = await verificarAcceso(m?.[1], deps.keys);
    if (!claims) throw noAutenticado();
    if (!esAdmin(claims)) throw sinPermisos();
    await next();
  });
  const reenviada = ({ email }: { email: string }): Esquema<'ActivacionReenviada'> => ({
    detail: `Se envió un nuevo enlace de activación a ${email}`,
    email,
  });
  return (
    new Hono<AppEnv>({ strict: false })
      .post('/usuarios', soloAdmin, body(entrada('POST /api/admin/usuarios/', invitacionSchema)), async (c) =>
        responder(c, 'POST /api/admin/usuarios/', 201, await deps.invitaciones.invitar(c.req.valid('json'))),
      )
      // A fresh activation link; the older link stops working.
      .post(
        '/usuarios/reenviar-activacion',
        soloAdmin,
        body(entrada('POST /api/admin/usuarios/reenviar-activacion/', reenvioSchema)),
        async (c) =>
          responder(
            c,
            'POST /api/admin/usuarios/reenviar-activacion/',
            200,
            reenviada(await deps.invitaciones.reenviar(c.req.valid('json'))),
          ),
      )
      .post('/usuarios/:id/reenviar-activacion', soloAdmin, params(idParam), async (c) =>
        responder(
          c,
          'POST /api/admin/usuarios/{id}/reenviar-activacion/',
          200,
          reenviada(await deps.invitaciones.reenviar(c.req.valid('param'))),
        ),
      )
  );
}

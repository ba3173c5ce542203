/**
 * Notifications (issue 17): /api/notificaciones/ (list, mark as read), the unsubscribe link of
 * notification mail (/api/notificaciones/baja/{token}/, no sign-in: a GET page that confirms and
 * the RFC 8058 one-click POST) and /api/usuarios/{id}/preferencias/ (the owner only).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { PRODUCTO } from '../../marca.ts';
import { cambioPreferenciasSchema, listaNotificacionesQuery, marcarLeidasSchema } from '../../validation/notificaciones.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { NotificacionesService } from '../services/notificaciones.server.ts';
import { consulta, entrada, responder } from './contrato.server.ts';
import { type AppEnv, autenticado, mismoUsuario } from './env.server.ts';
import { ApiError } from './errors.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

/** A page of a link in mail, opened without signing in: plain HTML, no script, its own strict policy. */
export function paginaSinSesion(titulo: string, cuerpo: string): Response {
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${titulo} — ${PRODUCTO}</title></head><body style="font-family:Arial,sans-serif;color:#1f2933;max-width:560px;margin:0 auto;padding:24px"><main><h1 style="font-size:1.4rem">${titulo}</h1>${cuerpo}<p><a href="/">Ir a ${PRODUCTO}</a></p></main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
    },
  });
}

/** A broken or forged link: the API's usual 400 (the contract gives every 4xx one shape). */
function usuarioDe(notificaciones: NotificacionesService, token: string): number {
  const id = notificaciones.usuarioDeBaja(token);
  if (id === null) throw new ApiError(400, 'El enlace para dejar de recibir correos no es válido');
  return id;
}
export const tokenParam = z.object({ token: z.string().max(200) });

export function notificacionesRoutes(notificaciones: NotificacionesService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .get('/baja/:token', params(tokenParam), (c) => {
      usuarioDe(notificaciones, c.req.valid('param').token);
      return paginaSinSesion(
        'Dejar de recibir correos',
        '<p>¿Quieres dejar de recibir correos de notificaciones? Seguirás viendo tus notificaciones en la plataforma.</p><form method="post"><button type="submit">Dejar de recibir correos</button></form>',
      );
    })
    .post('/baja/:token', params(tokenParam), async (c) => {
      const id = usuarioDe(notificaciones, c.req.valid('param').token);
      await notificaciones.darDeBaja(id);
      return paginaSinSesion(
        'Listo',
        '<p>Ya no recibirás correos de notificaciones. Puedes volver a activarlos en tu perfil («Correos de notificaciones»).</p>',
      );
    })
    .get('/', autenticado(keys), query(consulta('GET /api/notificaciones/', listaNotificacionesQuery)), async (c) =>
      responder(c, 'GET /api/notificaciones/', 200, await notificaciones.listar(c.var.auth.sub, c.req.valid('query'))),
    )
    .post('/leidas', autenticado(keys), body(entrada('POST /api/notificaciones/leidas/', marcarLeidasSchema)), async (c) => {
      const no_leidas = await notificaciones.marcarLeidas(c.var.auth.sub, c.req.valid('json').ids);
      return responder(c, 'POST /api/notificaciones/leidas/', 200, { no_leidas });
    });
}

/** /api/usuarios/{id}/preferencias/: mounted before the profile routes. */
export function preferenciasRoutes(notificaciones: NotificacionesService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/preferencias', autenticado(keys), params(idParam), async (c) => {
      const { id } = c.req.valid('param');
      mismoUsuario(c, id);
      return responder(c, 'GET /api/usuarios/{id}/preferencias/', 200, await notificaciones.preferencias(id));
    })
    .put(
      '/:id/preferencias',
      autenticado(keys),
      params(idParam),
      body(entrada('PUT /api/usuarios/{id}/preferencias/', cambioPreferenciasSchema)),
      async (c) => {
        const { id } = c.req.valid('param');
        mismoUsuario(c, id);
        return responder(c, 'PUT /api/usuarios/{id}/preferencias/', 200, await notificaciones.cambiarPreferencias(id, c.req.valid('json')));
      },
    );
}

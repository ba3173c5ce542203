/**
 * Following (issue 35, decision 0074): /api/seguimientos/ (follow, list mine, stop) for the
 * signed-in person, and the stop link of follow notifications in mail
 * (/api/seguimientos/dejar/{token}/, no sign-in: a GET page that confirms and a POST that stops).
 */
import { Hono } from 'hono';
import { seguimientoSchema } from '../../validation/seguimientos.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { escapeHtml } from '../html.server.ts';
import type { SeguimientosService } from '../services/seguimientos.server.ts';
import { entrada, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { ApiError } from './errors.server.ts';
import { body, params } from './input.server.ts';
import { paginaSinSesion, tokenParam } from './notificaciones.server.ts';
import { idParam } from './schemas.server.ts';

export function seguimientosRoutes(seguimientos: SeguimientosService, keys: TokenKeys) {
  /** What a stop link names; a broken or forged one is the API's usual 400. */
  async function deToken(token: string) {
    const s = await seguimientos.deToken(token);
    if (s === null) throw new ApiError(400, 'El enlace para dejar de seguir no es válido o ya no sigues eso');
    return s;
  }

  return new Hono<AppEnv>({ strict: false })
    .get('/dejar/:token', params(tokenParam), async (c) => {
      const s = await deToken(c.req.valid('param').token);
      return paginaSinSesion(
        'Dejar de seguir',
        `<p>¿Quieres dejar de seguir <strong>${escapeHtml(s.etiqueta)}</strong>? No recibirás más avisos de sus novedades.</p><form method="post"><button type="submit">Dejar de seguir</button></form>`,
      );
    })
    .post('/dejar/:token', params(tokenParam), async (c) => {
      const s = await deToken(c.req.valid('param').token);
      await seguimientos.dejarPorToken(s.id);
      return paginaSinSesion(
        'Listo',
        `<p>Ya no sigues <strong>${escapeHtml(s.etiqueta)}</strong>. Puedes ver lo que sigues en tu perfil («Lo que sigo»).</p>`,
      );
    })
    .use(autenticado(keys))
    .get('/', async (c) => responder(c, 'GET /api/seguimientos/', 200, { results: await seguimientos.listar(actor(c)) }))
    .post('/', body(entrada('POST /api/seguimientos/', seguimientoSchema)), async (c) => {
      const { seguimiento, creado } = await seguimientos.seguir(actor(c), c.req.valid('json'));
      return creado ? responder(c, 'POST /api/seguimientos/', 201, seguimiento) : responder(c, 'POST /api/seguimientos/', 200, seguimiento);
    })
    .delete('/:id', params(idParam), async (c) => {
      await seguimientos.dejar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/seguimientos/{id}/');
    });
}

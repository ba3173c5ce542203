/**
 * /api/capsulas/{id}/subtitulos/ (issue 20): a capsule's captions, listed by whoever may see it,
 * added, replaced and removed by its author or an admin. The files themselves are served under
 * /streaming/{id}/ (capsulas.server.ts, streamingRoutes).
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { idiomaSubtitulo, MAX_SUBTITULO_BYTES, SUBTITULO_GRANDE, subtituloSchema } from '../../validation/subtitulos.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { withUpload } from '../http/upload.server.ts';
import type { SubtitulosService } from '../services/subtitulos.server.ts';
import { formulario, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { ApiError } from './errors.server.ts';
import { params } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const idiomaParam = z.object({ id: id(), idioma: idiomaSubtitulo });

/** The upload's own 413 ('El archivo supera...') in the captions' words, on the form's field. */
async function conLimite<T>(recibir: () => Promise<T>): Promise<T> {
  try {
    return await recibir();
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) {
      throw new ApiError(413, SUBTITULO_GRANDE, { errors: { archivo: [SUBTITULO_GRANDE] } }, error.headers);
    }
    throw error;
  }
}

export function subtitulosRoutes(subtitulos: SubtitulosService, deps: { keys: TokenKeys; tempDir: string }) {
  const auth = autenticado(deps.keys);
  const form = formulario('POST /api/capsulas/{id}/subtitulos/', {
    maxFileBytes: MAX_SUBTITULO_BYTES,
    fields: subtituloSchema,
    file: 'archivo',
  });
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/subtitulos', auth, params(idParam), async (c) =>
      responder(c, 'GET /api/capsulas/{id}/subtitulos/', 200, await subtitulos.listar(c.req.valid('param').id, actor(c))),
    )
    .post('/:id/subtitulos', auth, params(idParam), async (c) => {
      const { id: capsula } = c.req.valid('param');
      // Refuse before receiving a file nobody may send.
      await subtitulos.exigirEditable(capsula, actor(c));
      const subtitulo = await conLimite(() =>
        withUpload(c.req.raw, deps.tempDir, form, ({ idioma }, archivo) => subtitulos.guardar(actor(c), capsula, idioma, archivo)),
      );
      return responder(c, 'POST /api/capsulas/{id}/subtitulos/', 201, subtitulo);
    })
    .delete('/:id/subtitulos/:idioma', auth, params(idiomaParam), async (c) => {
      const { id: capsula, idioma } = c.req.valid('param');
      await subtitulos.eliminar(actor(c), capsula, idioma);
      return sinContenido(c, 'DELETE /api/capsulas/{id}/subtitulos/{idioma}/');
    });
}

/**
 * A caption file from the database: checked again on every use ('no-cache', so a replaced or
 * removed file shows at once), and not sent again while unchanged (304 for its ETag).
 */
export function respuestaVtt(c: Context, { vtt, etag }: { vtt: string; etag: string }): Response {
  const headers = { etag, 'cache-control': 'private, no-cache' };
  const conocidas = (c.req.header('if-none-match') ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (conocidas.includes(etag) || conocidas.includes('*')) return c.body(null, 304, headers);
  return c.body(vtt, 200, { ...headers, 'content-type': 'text/vtt; charset=utf-8' });
}

/** /api/manuales/ (SPEC.md section 7) and the manual thumbnails. */
import { Hono } from 'hono';
import { z } from 'zod';
import { comentarioSchema } from '../../validation/comentarios.ts';
import { busquedaManualesSchema, manualEdicionSchema, manualSchema } from '../../validation/manuales.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import { withUpload } from '../http/upload.server.ts';
import { placeholderResponse } from '../media/placeholder.server.ts';
import type { ManualesService } from '../services/manuales.server.ts';
import type { Comentario } from '../services/recursos.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { type AppEnv, actor, autenticado, soloAdmin } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { recursosRoutes } from './recursos.server.ts';
import { id, idParam } from './schemas.server.ts';

const comentarioEntrada = comentarioSchema.extend({
  id_usuario: id().optional(),
  id_recurso: id('Manual no válido'),
  tipo_recurso: z.literal('id_manual', { error: "tipo_recurso debe ser 'id_manual'" }),
  id_respuesta_comentario: id().nullable().optional(),
});

const likeEntrada = z
  .object({
    id_usuario: id().optional(),
    id_manual: id('Manual no válido'),
    add: z.coerce.boolean({ error: 'add debe ser true o false' }),
  })
  .transform(({ id_manual, ...l }) => ({ ...l, id_recurso: id_manual }));

const comentarioManual = (c: Comentario) => ({ ...c, tipo_recurso: 'id_manual' as const });

export function manualesRoutes(manuales: ManualesService, deps: { keys: TokenKeys; storage: Storage }) {
  const auth = autenticado(deps.keys);
  // Downloads are plain links (the browser saves the file as it arrives), so they carry the cookie.
  const conCookie = autenticado(deps.keys, { cookie: true });
  return new Hono<AppEnv>({ strict: false })
    .get('/', auth, query(busquedaManualesSchema), async (c) => c.json(await manuales.listar(c.req.valid('query')), 200))
    .post('/', auth, async (c) => {
      // Refuse before receiving a large body nobody may send.
      soloAdmin(c);
      const form = { maxFileBytes: manuales.limiteBytes(), fields: manualSchema, file: 'archivo' };
      const manual = await withUpload(c.req.raw, deps.storage.tempDir, form, (input, archivo) => manuales.crear(actor(c), input, archivo));
      return c.json(manual, 201);
    })
    .put('/', auth, body(manualEdicionSchema), async (c) => {
      await manuales.editar(actor(c), c.req.valid('json'));
      return c.body(null, 204);
    })
    .route(
      '/',
      recursosRoutes(manuales.recursos, deps.keys, {
        tipo: 'manual',
        comentario: comentarioEntrada,
        like: likeEntrada,
        salida: comentarioManual,
      }),
    )
    .get('/:id', auth, params(idParam), async (c) => c.json(await manuales.obtener(c.req.valid('param').id, c.var.auth.sub), 200))
    .delete('/:id', auth, params(idParam), async (c) => {
      await manuales.eliminar(actor(c), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .get('/:id/descargar', conCookie, params(idParam), async (c) => {
      const { key, titulo } = await manuales.archivo(c.req.valid('param').id);
      return fileResponse(deps.storage, {
        key,
        contentType: 'application/octet-stream',
        filename: `${titulo}.pdf`,
        range: c.req.header('range'),
      });
    })
    .get('/:id/leer', conCookie, params(idParam), async (c) => {
      const { key, titulo } = await manuales.archivo(c.req.valid('param').id);
      return fileResponse(deps.storage, {
        key,
        contentType: 'application/pdf',
        filename: `${titulo}.pdf`,
        disposition: 'inline',
        range: c.req.header('range'),
      });
    });
}

/** /miniaturas/manuales/{id}/: img tags cannot send headers, so the session cookie is accepted. */
export function miniaturasManualesRoutes(manuales: ManualesService, deps: { keys: TokenKeys; storage: Storage }) {
  return new Hono<AppEnv>({ strict: false }).get('/:id', autenticado(deps.keys, { cookie: true }), params(idParam), async (c) => {
    const key = await manuales.miniatura(c.req.valid('param').id);
    if (!key) return placeholderResponse('PDF');
    return fileResponse(deps.storage, { key, contentType: 'image/jpeg', cacheControl: 'private, max-age=86400' });
  });
}

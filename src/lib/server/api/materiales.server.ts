/** /api/bdocente/ (SPEC.md section 7) and /miniaturas/bdocente/{id}/. */
import { Hono } from 'hono';
import { z } from 'zod';
import { comentarioSchema } from '../../validation/comentarios.ts';
import { busquedaMaterialesSchema, materialEdicionSchema, materialSchema } from '../../validation/materiales.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import { receiveUpload } from '../http/upload.server.ts';
import { placeholderResponse } from '../media/placeholder.server.ts';
import type { MaterialesService } from '../services/materiales.server.ts';
import type { Comentario } from '../services/recursos.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { type AppEnv, autenticado, mismoUsuario } from './env.server.ts';
import { body, params, parseWith, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const comentarioEntrada = comentarioSchema.extend({
  id_usuario: id().optional(),
  id_recurso: id('Material no válido'),
  tipo_recurso: z.literal('id_material_docente', { error: "tipo_recurso debe ser 'id_material_docente'" }),
  id_respuesta_comentario: id().nullable().optional(),
});

const likeEntrada = z.object({
  id_usuario: id().optional(),
  id_material: id('Material no válido'),
  add: z.coerce.boolean({ error: 'add debe ser true o false' }),
});

const comentarioMaterial = (c: Comentario) => ({ ...c, tipo_recurso: 'id_material_docente' as const });

type Deps = { keys: TokenKeys; storage: Storage };
const actor = (claims: { sub: number; groups: string[] }) => ({ id: claims.sub, groups: claims.groups });

export function materialesRoutes(materiales: MaterialesService, deps: Deps) {
  const auth = autenticado(deps.keys);
  // Downloads are plain links (the browser saves the file as it arrives), so they carry the cookie.
  const conCookie = autenticado(deps.keys, { cookie: true });
  return new Hono<AppEnv>({ strict: false })
    .get('/', auth, query(busquedaMaterialesSchema), async (c) => c.json(await materiales.listar(c.req.valid('query')), 200))
    .post('/', auth, async (c) => {
      const upload = await receiveUpload(c.req.raw, deps.storage.tempDir, { maxFileBytes: materiales.limiteBytes() });
      try {
        const input = parseWith(materialSchema, upload.fields);
        return c.json(
          await materiales.crear(
            actor(c.var.auth),
            input,
            upload.files.find((f) => f.field === 'archivo'),
          ),
          201,
        );
      } finally {
        await upload.discard();
      }
    })
    .put('/', auth, body(materialEdicionSchema), async (c) => {
      await materiales.editar(actor(c.var.auth), c.req.valid('json'));
      return c.body(null, 204);
    })
    .get('/comentarios/:id', auth, params(idParam), async (c) => {
      const { comentarios_base, comentarios_hijos } = await materiales.recursos.comentarios('material', c.req.valid('param').id);
      return c.json(
        { comentarios_base: comentarios_base.map(comentarioMaterial), comentarios_hijos: comentarios_hijos.map(comentarioMaterial) },
        200,
      );
    })
    .post('/comentarios', auth, body(comentarioEntrada), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const comentario = await materiales.recursos.comentar(
        'material',
        input.id_recurso,
        c.var.auth.sub,
        input.contenido,
        input.id_respuesta_comentario ?? null,
      );
      return c.json(comentarioMaterial(comentario), 201);
    })
    .post('/like', auth, body(likeEntrada), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const likes = await materiales.recursos.like('material', input.id_material, c.var.auth.sub, input.add);
      return c.json({ detail: input.add ? 'Me gusta registrado' : 'Me gusta quitado', likes }, 200);
    })
    .get('/:id', auth, params(idParam), async (c) => c.json(await materiales.obtener(c.req.valid('param').id, c.var.auth.sub), 200))
    .delete('/:id', auth, params(idParam), async (c) => {
      await materiales.eliminar(actor(c.var.auth), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .get('/:id/descargar', conCookie, params(idParam), async (c) => {
      const { key, nombre } = await materiales.archivo(c.req.valid('param').id);
      return fileResponse(deps.storage, { key, contentType: 'application/octet-stream', filename: nombre, range: c.req.header('range') });
    });
}

export function miniaturasMaterialesRoutes(materiales: MaterialesService, deps: Deps) {
  return new Hono<AppEnv>({ strict: false }).get('/:id', autenticado(deps.keys, { cookie: true }), params(idParam), async (c) => {
    const thumb = await materiales.miniatura(c.req.valid('param').id);
    if ('etiqueta' in thumb) return placeholderResponse(thumb.etiqueta);
    return fileResponse(deps.storage, { key: thumb.key, contentType: 'image/jpeg', cacheControl: 'private, max-age=86400' });
  });
}

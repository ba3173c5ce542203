/** /api/foro/ (SPEC.md section 7) and the category images under /miniaturas/categorias/. */
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { z } from 'zod';
import {
  categoriaEdicionSchema,
  categoriaSchema,
  comentarioForoSchema,
  conversacionSchema,
  hoyEnChile,
  listaCategoriasSchema,
  listaConversacionesSchema,
} from '../../validation/foro.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import { withUpload } from '../http/upload.server.ts';
import type { ForoService } from '../services/foro.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { type AppEnv, actor, autenticado, mismoUsuario, soloAdmin } from './env.server.ts';
import { body, params, parseWith, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const REACCION_NO_VALIDA = 'Reacción no válida';
const accion = z.enum(['like', 'remove_like'], { error: "action debe ser 'like' o 'remove_like'" });
const reaccionConversacion = z.coerce
  .number({ error: REACCION_NO_VALIDA })
  .int(REACCION_NO_VALIDA)
  .refine((n): n is 1 | 2 | 3 | 4 | 5 => n >= 1 && n <= 5, REACCION_NO_VALIDA);
const reaccionComentario = z.coerce
  .number({ error: REACCION_NO_VALIDA })
  .refine((n): n is 1 | 3 => n === 1 || n === 3, 'Los comentarios solo admiten Me gusta (1) y Me interesa (3)');

const conversacionNueva = conversacionSchema.extend({
  id_usuario: id(),
  id_categoria: id('Categoria no válida'),
});

const comentarioEntrada = comentarioForoSchema.extend({
  id_conversacion: id('Conversación no válida'),
  id_categoria: id('Categoria no válida'),
  comentario_padre: id('El comentario que responde no existe').nullable().optional(),
});

const reaccionConversacionEntrada = z.object({
  id_conversacion: id('Conversación no válida'),
  id_like: reaccionConversacion,
  action: accion,
});

const reaccionComentarioEntrada = z.object({
  id_comentario: id('Comentario no válido'),
  id_like: reaccionComentario,
  action: accion,
});

export function foroRoutes(foro: ForoService, deps: { keys: TokenKeys; storage: Storage; now: () => Date }) {
  const auth = autenticado(deps.keys);
  const { categorias, conversaciones, comentarios } = foro;
  // Multipart category forms: each route refuses a caller who is no admin before receiving them.
  const formulario = <S extends z.ZodType>(fields: S) => ({ maxFileBytes: categorias.limiteImagenBytes(), fields, file: 'archivo' });

  return new Hono<AppEnv>({ strict: false })
    .get('/categorias', auth, query(listaCategoriasSchema), async (c) =>
      c.json(await categorias.listar(actor(c), c.req.valid('query')), 200),
    )
    .post('/categorias', auth, async (c) => {
      soloAdmin(c);
      const categoria = await withUpload(c.req.raw, deps.storage.tempDir, formulario(categoriaSchema), (input, archivo) =>
        categorias.crear(actor(c), input, archivo),
      );
      return c.json(categoria, 201);
    })
    .get('/categorias/:id', auth, params(idParam), async (c) =>
      c.json(await categorias.obtener(actor(c), c.req.valid('param').id, { visitar: true }), 200),
    )
    .put('/categorias/:id', auth, params(idParam), async (c) => {
      soloAdmin(c);
      await withUpload(c.req.raw, deps.storage.tempDir, formulario(categoriaEdicionSchema), (input, archivo) =>
        categorias.editar(actor(c), c.req.valid('param').id, input, archivo),
      );
      return c.body(null, 204);
    })
    .get(
      '/categorias/:id/conversaciones',
      auth,
      params(idParam),
      // 'No future dates' is judged by today in Chile on the server's clock.
      validator('query', (value) => parseWith(listaConversacionesSchema(hoyEnChile(deps.now())), value)),
      async (c) => c.json(await conversaciones.listar(actor(c), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .post('/conversacion/nueva', auth, body(conversacionNueva), async (c) => {
      const { id_usuario, ...input } = c.req.valid('json');
      mismoUsuario(c, id_usuario);
      return c.json(await conversaciones.crear(actor(c), input), 201);
    })
    .get('/conversacion/likes_usuario', auth, query(z.object({ id_conversacion: id('Conversación no válida') })), async (c) => {
      const lista_reacciones = await conversaciones.reaccionesUsuario(actor(c), c.req.valid('query').id_conversacion);
      return c.json({ lista_reacciones }, 200);
    })
    .post('/conversacion/like', auth, body(reaccionConversacionEntrada), async (c) => {
      const { id_conversacion, id_like, action } = c.req.valid('json');
      return c.json(await conversaciones.reaccionar(actor(c), id_conversacion, id_like, action), 200);
    })
    .post('/conversacion/comentar', auth, body(comentarioEntrada), async (c) => {
      const input = c.req.valid('json');
      const comentario = await comentarios.comentar(actor(c), { ...input, comentario_padre: input.comentario_padre ?? null });
      return c.json(comentario, 201);
    })
    .get('/conversacion/:id', auth, params(idParam), async (c) =>
      c.json(await conversaciones.obtener(actor(c), c.req.valid('param').id, { visitar: true }), 200),
    )
    .get('/conversacion/:id/respuestas', auth, params(idParam), async (c) =>
      c.json(await comentarios.arbol(actor(c), c.req.valid('param').id), 200),
    )
    .get('/comentario/likes_usuario', auth, query(z.object({ id_comentario: id('Comentario no válido') })), async (c) => {
      const lista_reacciones = await comentarios.reaccionesUsuario(actor(c), c.req.valid('query').id_comentario);
      return c.json({ lista_reacciones }, 200);
    })
    .post('/comentario/like', auth, body(reaccionComentarioEntrada), async (c) => {
      const { id_comentario, id_like, action } = c.req.valid('json');
      return c.json(await comentarios.reaccionar(actor(c), id_comentario, id_like, action), 200);
    });
}

/** /miniaturas/categorias/{id}/: img tags cannot send headers, so the session cookie is accepted. */
export function miniaturasCategoriasRoutes(foro: ForoService, deps: { keys: TokenKeys; storage: Storage }) {
  return new Hono<AppEnv>({ strict: false }).get('/:id', autenticado(deps.keys, { cookie: true }), params(idParam), async (c) => {
    // WebP for the browsers that say they take it; JPEG for the old ones.
    const webp = /image\/webp/.test(c.req.header('accept') ?? '');
    const key = await foro.categorias.imagen(actor(c), c.req.valid('param').id, webp ? 'webp' : 'jpg');
    const response = await fileResponse(deps.storage, {
      key,
      contentType: webp ? 'image/webp' : 'image/jpeg',
      cacheControl: 'private, max-age=604800',
    });
    response.headers.set('vary', 'Accept');
    return response;
  });
}

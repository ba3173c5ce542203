/** /api/foro/ (docs/SPEC.md section 7) and the category images under /miniaturas/categorias/. */
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
import { withUploadOrSubida } from '../http/archivo-o-subida.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import { esReaccion, esReaccionComentario, type ForoService } from '../services/foro.server.ts';
import type { SubidasService } from '../services/subidas.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { consulta, entrada, formulario, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado, mismoUsuario, soloAdmin } from './env.server.ts';
import { body, params, parseWith, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const REACCION_NO_VALIDA = 'Reacción no válida';
const accion = z.enum(['like', 'remove_like'], { error: "action debe ser 'like' o 'remove_like'" });
const reaccionConversacion = z.coerce.number({ error: REACCION_NO_VALIDA }).refine(esReaccion, REACCION_NO_VALIDA);
const reaccionComentario = z.coerce
  .number({ error: REACCION_NO_VALIDA })
  .refine(esReaccionComentario, 'Los comentarios solo admiten Me gusta (1) y Me interesa (3)');

const conversacionNueva = entrada(
  'POST /api/foro/conversacion/nueva/',
  conversacionSchema.extend({
    id_usuario: id(),
    id_categoria: id('Categoria no válida'),
  }),
);

const comentarioEntrada = entrada(
  'POST /api/foro/conversacion/comentar/',
  comentarioForoSchema.extend({
    id_conversacion: id('Conversación no válida'),
    id_categoria: id('Categoria no válida'),
    comentario_padre: id('El comentario que responde no existe').nullable().optional(),
  }),
);

const conversacionEdicion = entrada('PUT /api/foro/conversacion/{id}/', conversacionSchema);
const comentarioEdicion = entrada('PUT /api/foro/comentario/{id}/', comentarioForoSchema);

const reaccionConversacionEntrada = entrada(
  'POST /api/foro/conversacion/like/',
  z.object({
    id_conversacion: id('Conversación no válida'),
    id_like: reaccionConversacion,
    action: accion,
  }),
);

const reaccionComentarioEntrada = entrada(
  'POST /api/foro/comentario/like/',
  z.object({
    id_comentario: id('Comentario no válido'),
    id_like: reaccionComentario,
    action: accion,
  }),
);

export function foroRoutes(foro: ForoService, deps: { keys: TokenKeys; storage: Storage; now: () => Date; subidas: SubidasService }) {
  const auth = autenticado(deps.keys);
  const { categorias, conversaciones, comentarios } = foro;
  // Multipart category forms: each route refuses a caller who is no admin before receiving them.
  const categoriaNueva = formulario('POST /api/foro/categorias/', {
    maxFileBytes: categorias.limiteImagenBytes(),
    fields: categoriaSchema,
    file: 'archivo',
  });
  const categoriaEdicion = formulario('PUT /api/foro/categorias/{id}/', {
    maxFileBytes: categorias.limiteImagenBytes(),
    fields: categoriaEdicionSchema,
    file: 'archivo',
  });

  return new Hono<AppEnv>({ strict: false })
    .get('/categorias', auth, query(consulta('GET /api/foro/categorias/', listaCategoriasSchema)), async (c) =>
      responder(c, 'GET /api/foro/categorias/', 200, await categorias.listar(actor(c), c.req.valid('query'))),
    )
    .post('/categorias', auth, async (c) => {
      soloAdmin(c);
      const subida = deps.subidas.para(actor(c), 'categoria');
      const categoria = await withUploadOrSubida(c.req.raw, deps.storage.tempDir, categoriaNueva, subida, (input, archivo) =>
        categorias.crear(actor(c), input, archivo),
      );
      return responder(c, 'POST /api/foro/categorias/', 201, categoria);
    })
    .get('/categorias/:id', auth, params(idParam), async (c) =>
      responder(c, 'GET /api/foro/categorias/{id}/', 200, await categorias.obtener(actor(c), c.req.valid('param').id, { visitar: true })),
    )
    .put('/categorias/:id', auth, params(idParam), async (c) => {
      soloAdmin(c);
      const subida = deps.subidas.para(actor(c), 'categoria');
      await withUploadOrSubida(c.req.raw, deps.storage.tempDir, categoriaEdicion, subida, (input, archivo) =>
        categorias.editar(actor(c), c.req.valid('param').id, input, archivo),
      );
      return sinContenido(c, 'PUT /api/foro/categorias/{id}/');
    })
    .get(
      '/categorias/:id/conversaciones',
      auth,
      params(idParam),
      // 'No future dates' is judged by today in Chile on the server's clock.
      validator('query', (value) =>
        parseWith(consulta('GET /api/foro/categorias/{id}/conversaciones/', listaConversacionesSchema(hoyEnChile(deps.now()))), value),
      ),
      async (c) =>
        responder(
          c,
          'GET /api/foro/categorias/{id}/conversaciones/',
          200,
          await conversaciones.listar(actor(c), c.req.valid('param').id, c.req.valid('query')),
        ),
    )
    .post('/conversacion/nueva', auth, body(conversacionNueva), async (c) => {
      const { id_usuario, ...input } = c.req.valid('json');
      mismoUsuario(c, id_usuario);
      return responder(c, 'POST /api/foro/conversacion/nueva/', 201, await conversaciones.crear(actor(c), input));
    })
    .get(
      '/conversacion/likes_usuario',
      auth,
      query(consulta('GET /api/foro/conversacion/likes_usuario/', z.object({ id_conversacion: id('Conversación no válida') }))),
      async (c) => {
        const lista_reacciones = await conversaciones.reaccionesUsuario(actor(c), c.req.valid('query').id_conversacion);
        return responder(c, 'GET /api/foro/conversacion/likes_usuario/', 200, { lista_reacciones });
      },
    )
    .post('/conversacion/like', auth, body(reaccionConversacionEntrada), async (c) => {
      const { id_conversacion, id_like, action } = c.req.valid('json');
      return responder(
        c,
        'POST /api/foro/conversacion/like/',
        200,
        await conversaciones.reaccionar(actor(c), id_conversacion, id_like, action),
      );
    })
    .post('/conversacion/comentar', auth, body(comentarioEntrada), async (c) =>
      responder(c, 'POST /api/foro/conversacion/comentar/', 201, await comentarios.comentar(actor(c), c.req.valid('json'))),
    )
    .get('/conversacion/:id', auth, params(idParam), async (c) =>
      responder(
        c,
        'GET /api/foro/conversacion/{id}/',
        200,
        await conversaciones.obtener(actor(c), c.req.valid('param').id, { visitar: true }),
      ),
    )
    .put('/conversacion/:id', auth, params(idParam), body(conversacionEdicion), async (c) =>
      responder(
        c,
        'PUT /api/foro/conversacion/{id}/',
        200,
        await conversaciones.editar(actor(c), c.req.valid('param').id, c.req.valid('json')),
      ),
    )
    .delete('/conversacion/:id', auth, params(idParam), async (c) => {
      await conversaciones.eliminar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/foro/conversacion/{id}/');
    })
    .get('/conversacion/:id/respuestas', auth, params(idParam), async (c) =>
      responder(c, 'GET /api/foro/conversacion/{id}/respuestas/', 200, await comentarios.arbol(actor(c), c.req.valid('param').id)),
    )
    .get(
      '/comentario/likes_usuario',
      auth,
      query(consulta('GET /api/foro/comentario/likes_usuario/', z.object({ id_comentario: id('Comentario no válido') }))),
      async (c) => {
        const lista_reacciones = await comentarios.reaccionesUsuario(actor(c), c.req.valid('query').id_comentario);
        return responder(c, 'GET /api/foro/comentario/likes_usuario/', 200, { lista_reacciones });
      },
    )
    .post('/comentario/like', auth, body(reaccionComentarioEntrada), async (c) => {
      const { id_comentario, id_like, action } = c.req.valid('json');
      return responder(c, 'POST /api/foro/comentario/like/', 200, await comentarios.reaccionar(actor(c), id_comentario, id_like, action));
    })
    .put('/comentario/:id', auth, params(idParam), body(comentarioEdicion), async (c) =>
      responder(
        c,
        'PUT /api/foro/comentario/{id}/',
        200,
        await comentarios.editar(actor(c), c.req.valid('param').id, c.req.valid('json').contenido),
      ),
    )
    .delete('/comentario/:id', auth, params(idParam), async (c) => {
      await comentarios.eliminar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/foro/comentario/{id}/');
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

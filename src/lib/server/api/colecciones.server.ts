/**
 * Saved items (/api/guardados/) and collections (/api/colecciones/), issue 35. Every route needs a
 * session; the service decides what the person may see and change.
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  coleccionSchema,
  edicionColeccionSchema,
  guardadoParam,
  guardadoSchema,
  itemColeccionSchema,
  itemParam,
  TIPOS_GUARDABLES,
} from '../../validation/colecciones.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { contentDisposition } from '../http/file-response.server.ts';
import type { ColeccionesService } from '../services/colecciones.server.ts';
import { consulta, entrada, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

const listaGuardadosQuery = consulta(
  'GET /api/guardados/',
  z.object({ tipo: z.enum(TIPOS_GUARDABLES, { error: 'Tipo de contenido no válido' }).optional() }),
);

export function guardadosRoutes(colecciones: ColeccionesService, keys: TokenKeys) {
  const { guardados } = colecciones;
  return new Hono<AppEnv>({ strict: false })
    .use(autenticado(keys))
    .get('/', query(listaGuardadosQuery), async (c) =>
      responder(c, 'GET /api/guardados/', 200, { results: await guardados.listar(actor(c), c.req.valid('query').tipo) }),
    )
    .post('/', body(entrada('POST /api/guardados/', guardadoSchema)), async (c) =>
      responder(c, 'POST /api/guardados/', 201, await guardados.guardar(actor(c), c.req.valid('json'))),
    )
    .delete('/:tipo/:id', params(guardadoParam), async (c) => {
      await guardados.quitar(actor(c), c.req.valid('param'));
      return sinContenido(c, 'DELETE /api/guardados/{tipo}/{id}/');
    });
}

export function coleccionesRoutes(colecciones: ColeccionesService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .use(autenticado(keys))
    .get('/', async (c) => responder(c, 'GET /api/colecciones/', 200, { results: await colecciones.mias(actor(c)) }))
    .post('/', body(entrada('POST /api/colecciones/', coleccionSchema)), async (c) =>
      responder(c, 'POST /api/colecciones/', 201, await colecciones.crear(actor(c), c.req.valid('json'))),
    )
    .get('/:id', params(idParam), async (c) =>
      responder(c, 'GET /api/colecciones/{id}/', 200, await colecciones.obtener(actor(c), c.req.valid('param').id)),
    )
    .put('/:id', params(idParam), body(entrada('PUT /api/colecciones/{id}/', edicionColeccionSchema)), async (c) =>
      responder(c, 'PUT /api/colecciones/{id}/', 200, await colecciones.editar(actor(c), c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete('/:id', params(idParam), async (c) => {
      await colecciones.eliminar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/colecciones/{id}/');
    })
    .post('/:id/items', params(idParam), body(entrada('POST /api/colecciones/{id}/items/', itemColeccionSchema)), async (c) => {
      const { tipo, id, nota } = c.req.valid('json');
      return responder(
        c,
        'POST /api/colecciones/{id}/items/',
        201,
        await colecciones.agregar(actor(c), c.req.valid('param').id, { tipo, id }, nota),
      );
    })
    .delete('/:id/items/:item', params(itemParam), async (c) => {
      const { id, item } = c.req.valid('param');
      return responder(c, 'DELETE /api/colecciones/{id}/items/{item}/', 200, await colecciones.quitar(actor(c), id, item));
    })
    .post('/:id/copiar', params(idParam), async (c) =>
      responder(c, 'POST /api/colecciones/{id}/copiar/', 201, await colecciones.copiar(actor(c), c.req.valid('param').id)),
    );
}

/**
 * GET /api/colecciones/{id}/mochila/: the ZIP, streamed as it is written (decision 0069). A link
 * on the collection's page, so the session cookie is accepted as for the other downloads.
 */
export function mochilaRoutes(colecciones: ColeccionesService, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false }).get('/:id/mochila', autenticado(keys, { cookie: true }), params(idParam), async (c) => {
    const plan = await colecciones.planMochila(await colecciones.obtener(actor(c), c.req.valid('param').id));
    const cuerpo = Readable.toWeb(colecciones.zipMochila(plan)) as ReadableStream<Uint8Array>;
    return new Response(cuerpo, {
      status: 200,
      headers: {
        'content-type': 'application/zip',
        'content-disposition': contentDisposition('attachment', `Mochila - ${plan.nombre}.zip`),
        'cache-control': 'private, no-store',
      },
    });
  });
}

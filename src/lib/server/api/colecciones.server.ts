/**
 * Saved items (/api/guardados/) and collections (/api/colecciones/), issue 35. Every route needs a
 * session; the service decides what the person may see and change.
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
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
import { contentDisposition, fileResponse } from '../http/file-response.server.ts';
import type { OrigenMochila } from '../services/colecciones/mochilas-grandes.server.ts';
import type { ColeccionesService } from '../services/colecciones.server.ts';
import type { Storage } from '../storage/storage.server.ts';
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

/** How long a client waits before asking again for a mochila being built. */
const REINTENTAR_SEGUNDOS = 5;

/**
 * GET /api/colecciones/{id}/mochila/ and GET /api/oas/{id}/mochila/ (decisions 0069, 0076): the
 * ZIP, streamed as it is written when small; a large one is built by the background job, so the
 * first request queues it and every request answers 202 with its progress until it is built,
 * then its file from storage. Links on the pages, so the session cookie is accepted as for the
 * other downloads.
 */
function rutasMochila(origen: OrigenMochila, operacion: OperacionMochila) {
  return (colecciones: ColeccionesService, keys: TokenKeys, storage: Storage) =>
    new Hono<AppEnv>({ strict: false }).get('/:id/mochila', autenticado(keys, { cookie: true }), params(idParam), async (c) => {
      const id = c.req.valid('param').id;
      const lector = actor(c);
      const pedido = await colecciones.pedirMochila(lector, origen, id, { encargar: true });
      const { resumen } = pedido.leida;
      const nombre = `Mochila - ${resumen.nombre}.zip`;
      if (pedido.directa) {
        const plan = await colecciones.planMochila(pedido.leida);
        const cuerpo = Readable.toWeb(colecciones.zipMochila(plan)) as ReadableStream<Uint8Array>;
        return new Response(cuerpo, {
          status: 200,
          headers: {
            'content-type': 'application/zip',
            'content-disposition': contentDisposition('attachment', nombre),
            'cache-control': 'private, no-store',
          },
        });
      }
      const { estado } = pedido;
      if (estado?.lista) {
        return fileResponse(storage, {
          key: estado.clave,
          contentType: 'application/zip',
          filename: nombre,
          range: c.req.header('range'),
          directa: true,
          cacheControl: 'private, no-store',
        });
      }
      const progreso = estado ?? { estado: 'pendiente' as const, progreso: 0, bytes_hechos: 0, bytes_total: resumen.bytes };
      c.header('retry-after', String(REINTENTAR_SEGUNDOS));
      c.header('cache-control', 'private, no-store');
      const cuerpo: Esquema<'MochilaEnPreparacion'> = {
        estado: progreso.estado,
        progreso: progreso.progreso,
        bytes_hechos: progreso.bytes_hechos,
        bytes_total: progreso.bytes_total,
      };
      // One answer for both routes, typed by each one's contract.
      return operacion === 'GET /api/oas/{id}/mochila/' ? responder(c, operacion, 202, cuerpo) : responder(c, operacion, 202, cuerpo);
    });
}

type OperacionMochila = 'GET /api/colecciones/{id}/mochila/' | 'GET /api/oas/{id}/mochila/';

/** A collection's mochila, under /api/colecciones. */
export const mochilaRoutes = rutasMochila('coleccion', 'GET /api/colecciones/{id}/mochila/');

/** An OA's mochila, under /api/oas. */
export const mochilaOaRoutes = rutasMochila('oa', 'GET /api/oas/{id}/mochila/');

/**
 * 'Mis datos' under /api/usuarios/{id}/ (issue 31, docs/decisions/0058): what is held about the
 * person, their copies (asked for with 202, listed with `estado` and, when ready, `url`), and a
 * ready copy's download, which the page reaches by a plain link (the session cookie counts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import type { MisDatosService } from '../services/mis-datos.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { responder } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { params } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const copiaParam = z.object({ id: id(), id_copia: id() });

export function misDatosRoutes(deps: { misDatos: MisDatosService; keys: TokenKeys; storage: Storage }) {
  const { misDatos, keys, storage } = deps;
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/mis-datos', autenticado(keys), params(idParam), async (c) =>
      responder(c, 'GET /api/usuarios/{id}/mis-datos/', 200, await misDatos.resumen(actor(c), c.req.valid('param').id)),
    )
    .get('/:id/copia-datos', autenticado(keys), params(idParam), async (c) =>
      responder(c, 'GET /api/usuarios/{id}/copia-datos/', 200, { copias: await misDatos.listar(actor(c), c.req.valid('param').id) }),
    )
    .post('/:id/copia-datos', autenticado(keys), params(idParam), async (c) =>
      responder(c, 'POST /api/usuarios/{id}/copia-datos/', 202, await misDatos.solicitar(actor(c), c.req.valid('param').id)),
    )
    .get('/:id/copia-datos/:id_copia/descargar', autenticado(keys, { cookie: true }), params(copiaParam), async (c) => {
      const { id: idUsuario, id_copia } = c.req.valid('param');
      const range = c.req.header('range');
      // A resumed download (a later byte range) is the same download: recorded once, at its start.
      const inicio = range === undefined || /^bytes=0-/.test(range.trim());
      const { clave, nombre } = await misDatos.abrir(actor(c), idUsuario, id_copia, inicio);
      return fileResponse(storage, {
        key: clave,
        contentType: 'application/zip',
        filename: nombre,
        range,
        directa: true,
        cacheControl: 'private, no-store',
      });
    });
}

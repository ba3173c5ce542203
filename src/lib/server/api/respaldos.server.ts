/**
 * /api/admin/respaldos/ (issue 28, docs/decisions/0048): the backups kept, a backup made now, and
 * an archive's download. Admins only (bearer token of group 'admin' or `X-Admin-Key`, which
 * `npm run respaldo` sends while the server holds the embedded database).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { z } from 'zod';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { contentDisposition } from '../http/file-response.server.ts';
import type { RespaldosService } from '../services/respaldos.server.ts';
import { type AdminEnv, soloAdminConCookie, soloAdminOClave } from './acceso-admin.server.ts';
import { responder } from './contrato.server.ts';
import { params } from './input.server.ts';

const nombreParam = z.object({ nombre: z.string().max(64) });

export function respaldosRoutes(deps: { respaldos: RespaldosService; keys: TokenKeys; adminKey: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const { respaldos } = deps;
  /** The download is a plain link in the console: the session cookie counts too. */
  const adminConCookie = soloAdminConCookie(deps);
  return new Hono<AdminEnv>({ strict: false })
    .get('/respaldos', soloAdmin, async (c) => responder(c, 'GET /api/admin/respaldos/', 200, await respaldos.listar()))
    .post('/respaldos', soloAdmin, async (c) => responder(c, 'POST /api/admin/respaldos/', 201, await respaldos.crear(c.var.adminActor)))
    .get('/respaldos/:nombre/descargar', adminConCookie, params(nombreParam), async (c) => {
      const { nombre } = c.req.valid('param');
      const { ruta, bytes } = await respaldos.abrir(c.var.adminActor, nombre);
      return new Response(Readable.toWeb(createReadStream(ruta)) as ReadableStream, {
        headers: {
          'content-type': 'application/x-tar',
          'content-length': String(bytes),
          'content-disposition': contentDisposition('attachment', nombre),
          'cache-control': 'private, no-store',
        },
      });
    });
}

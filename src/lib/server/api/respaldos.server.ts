/**
 * /api/admin/respaldos/ (issue 28, docs/decisions/0048): the backups kept, a backup made now, and
 * an archive's download. Admins only (bearer token of group 'admin' or `X-Admin-Key`, which
 * `npm run respaldo` sends while the server holds the embedded database).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { type Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { contentDisposition } from '../http/file-response.server.ts';
import { esAdmin } from '../services/actor.server.ts';
import type { RespaldosService } from '../services/respaldos.server.ts';
import { ADMIN_KEY_HEADER, type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { responder } from './contrato.server.ts';
import { type AppEnv, autenticado } from './env.server.ts';
import { sinPermisos } from './errors.server.ts';
import { params } from './input.server.ts';

const nombreParam = z.object({ nombre: z.string().max(64) });

export function respaldosRoutes(deps: { respaldos: RespaldosService; keys: TokenKeys; adminKey: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const { respaldos } = deps;
  const conCookie = autenticado(deps.keys, { cookie: true });
  /** The download is a plain link in the console: the session cookie counts too. */
  const adminConCookie = createMiddleware<AdminEnv>(async (c, next) => {
    if (c.req.header(ADMIN_KEY_HEADER) !== undefined || c.req.header('authorization') !== undefined) return soloAdmin(c, next);
    // The same context: AdminEnv only adds `adminActor`, which `autenticado` never touches.
    return conCookie(c as unknown as Context<AppEnv>, async () => {
      if (!esAdmin(c.var.auth)) throw sinPermisos();
      c.set('adminActor', { id: c.var.auth.sub });
      await next();
    });
  });
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

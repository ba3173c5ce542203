/**
 * /api/admin/curriculo/ (issue 30): the curriculum the network keeps. The pairs and the search,
 * a pair's tree, units created, renamed, reordered, retired and deleted, OAs moved, reordered,
 * corrected and retired, and the curriculum file: its export, an example, and its import with a
 * preview. Admins only (bearer token of group 'admin' or `X-Admin-Key`; the two downloads also
 * take the session cookie, as the console links them). Every change goes to the audit log.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  CURRICULO_MAX_BYTES,
  cambioOaSchema,
  cambioUnidadSchema,
  ejemploCurriculoSchema,
  exportarCurriculoSchema,
  filtrosCurriculoSchema,
  importacionCurriculoSchema,
  nivelCurriculo,
  unidadNuevaSchema,
} from '../../validation/curriculo.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { decodificarTexto } from '../cli/csv.server.ts';
import { contentDisposition } from '../http/file-response.server.ts';
import { type UploadedFile, withUpload } from '../http/upload.server.ts';
import type { CurriculoService } from '../services/curriculo.server.ts';
import { type AdminEnv, soloAdminConCookie, soloAdminOClave } from './acceso-admin.server.ts';
import { consulta, entrada, formulario, responder, sinContenido } from './contrato.server.ts';
import { ApiError } from './errors.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

const NO_ES_ARCHIVO = 'El archivo debe ser un CSV o un JSON';

/** The file's text and whether it is JSON: the roster's decoding (UTF-8, else Windows-1252). */
async function textoDe(archivo: UploadedFile | undefined): Promise<{ texto: string; json: boolean }> {
  if (!archivo || (archivo.size === 0 && archivo.filename === '')) throw new ApiError(400, 'Debe subir un archivo CSV o JSON');
  const extension = path.extname(archivo.filename).toLowerCase();
  if (archivo.filename && !['.csv', '.txt', '.json'].includes(extension)) throw new ApiError(400, NO_ES_ARCHIVO);
  const texto = decodificarTexto(await readFile(archivo.tmpPath));
  if (texto === null) throw new ApiError(400, NO_ES_ARCHIVO);
  return { texto, json: extension === '.json' };
}

const parParam = z.object({
  area: z.string().trim().min(1, 'Asignatura no válida').max(20, 'Asignatura no válida'),
  nivel: nivelCurriculo,
});

/** A file download: the export and the example. */
const descarga = (archivo: { nombre: string; tipo: string; cuerpo: string }) =>
  new Response(archivo.cuerpo, {
    headers: {
      'content-type': archivo.tipo,
      'content-disposition': contentDisposition('attachment', archivo.nombre),
      'cache-control': 'private, no-store',
    },
  });

export function curriculoRoutes(deps: { curriculo: CurriculoService; keys: TokenKeys; adminKey: string; tempDir: string }) {
  const soloAdmin = soloAdminOClave(deps);
  const conCookie = soloAdminConCookie(deps);
  const { curriculo } = deps;
  const importacion = formulario('POST /api/admin/curriculo/importar/', {
    maxFileBytes: CURRICULO_MAX_BYTES,
    fields: importacionCurriculoSchema,
    file: 'archivo',
  });
  return new Hono<AdminEnv>({ strict: false })
    .get('/curriculo', soloAdmin, query(consulta('GET /api/admin/curriculo/', filtrosCurriculoSchema)), async (c) =>
      responder(c, 'GET /api/admin/curriculo/', 200, await curriculo.resumen(c.req.valid('query'))),
    )
    .get('/curriculo/exportar', conCookie, query(consulta('GET /api/admin/curriculo/exportar/', exportarCurriculoSchema)), async (c) =>
      descarga(await curriculo.exportar(c.req.valid('query'))),
    )
    .get('/curriculo/ejemplo', conCookie, query(consulta('GET /api/admin/curriculo/ejemplo/', ejemploCurriculoSchema)), async (c) =>
      descarga(curriculo.ejemplo(c.req.valid('query').formato)),
    )
    .post('/curriculo/importar', soloAdmin, async (c) => {
      const resultado = await withUpload(c.req.raw, deps.tempDir, importacion, async (campos, archivo) => {
        const { texto, json } = await textoDe(archivo);
        return curriculo.importar(c.var.adminActor, texto, json, campos.confirmar === 'true');
      });
      return responder(c, 'POST /api/admin/curriculo/importar/', 200, resultado);
    })
    .post('/curriculo/unidades', soloAdmin, body(entrada('POST /api/admin/curriculo/unidades/', unidadNuevaSchema)), async (c) =>
      responder(c, 'POST /api/admin/curriculo/unidades/', 201, await curriculo.crearUnidad(c.var.adminActor, c.req.valid('json'))),
    )
    .put(
      '/curriculo/unidades/:id',
      soloAdmin,
      params(idParam),
      body(entrada('PUT /api/admin/curriculo/unidades/{id}/', cambioUnidadSchema)),
      async (c) =>
        responder(
          c,
          'PUT /api/admin/curriculo/unidades/{id}/',
          200,
          await curriculo.editarUnidad(c.var.adminActor, c.req.valid('param').id, c.req.valid('json')),
        ),
    )
    .delete('/curriculo/unidades/:id', soloAdmin, params(idParam), async (c) => {
      await curriculo.eliminarUnidad(c.var.adminActor, c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/admin/curriculo/unidades/{id}/');
    })
    .put('/curriculo/oas/:id', soloAdmin, params(idParam), body(entrada('PUT /api/admin/curriculo/oas/{id}/', cambioOaSchema)), async (c) =>
      responder(
        c,
        'PUT /api/admin/curriculo/oas/{id}/',
        200,
        await curriculo.editarOa(c.var.adminActor, c.req.valid('param').id, c.req.valid('json')),
      ),
    )
    .get('/curriculo/:area/:nivel', soloAdmin, params(parParam), async (c) => {
      const { area, nivel } = c.req.valid('param');
      return responder(c, 'GET /api/admin/curriculo/{area}/{nivel}/', 200, await curriculo.par(area, nivel));
    });
}

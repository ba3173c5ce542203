/**
 * /api/admin/: the admin console's accounts and audit log (issue 16), and the account creation the
 * CLI uses. POST /api/admin/usuarios/ creates an account and sends its activation email;
 * POST /api/admin/usuarios/{id}/reenviar-activacion/ (or by email, for the CLI) sends a fresh
 * link. Used by admins and by `npm run usuarios` while the server runs (PGlite admits one process, so the CLI talks to
 * the running server with the local admin key from DATA_DIR instead of opening the database).
 * Every change is written to the audit log with who made it (`adminActor`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import {
  cambioUsuarioSchema,
  filtrosRegistroSchema,
  filtrosUsuariosSchema,
  IMPORTACION_MAX_BYTES,
  importacionSchema,
} from '../../validation/admin.ts';
import { invitacionSchema } from '../../validation/invitacion.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { decodificarTexto } from '../cli/csv.server.ts';
import { type UploadedFile, withUpload } from '../http/upload.server.ts';
import type { AdminUsuariosService } from '../services/admin-usuarios.server.ts';
import type { createInvitacionesService } from '../services/invitaciones.server.ts';
import type { RegistroService } from '../services/registro.server.ts';
import { type AdminEnv, soloAdminOClave } from './acceso-admin.server.ts';
import { consulta, entrada, formulario, responder } from './contrato.server.ts';
import { ApiError } from './errors.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

/** The CLI resends by email (it knows no ids). */
const reenvioSchema = z.object({ email: invitacionSchema.shape.email });

const NO_ES_CSV = 'El archivo no es un CSV';

/** The roster's text: UTF-8, or Windows-1252 as Excel in es-CL saves it. Binary files are refused. */
async function textoCsv(archivo: UploadedFile | undefined): Promise<string> {
  if (!archivo || (archivo.size === 0 && archivo.filename === '')) throw new ApiError(400, 'Debe subir un archivo CSV');
  const extension = path.extname(archivo.filename).toLowerCase();
  if (archivo.filename && extension !== '.csv' && extension !== '.txt') throw new ApiError(400, NO_ES_CSV);
  const texto = decodificarTexto(await readFile(archivo.tmpPath));
  if (texto === null) throw new ApiError(400, NO_ES_CSV);
  return texto;
}

export function adminRoutes(deps: {
  invitaciones: ReturnType<typeof createInvitacionesService>;
  adminUsuarios: AdminUsuariosService;
  registro: RegistroService;
  keys: TokenKeys;
  adminKey: string;
  tempDir: string;
}) {
  const soloAdmin = soloAdminOClave(deps);
  const reenviada = ({ email }: { email: string }): Esquema<'ActivacionReenviada'> => ({
    detail: `Se envió un nuevo enlace de activación a ${email}`,
    email,
  });
  const importacion = formulario('POST /api/admin/usuarios/importar/', {
    maxFileBytes: IMPORTACION_MAX_BYTES,
    fields: importacionSchema,
    file: 'archivo',
  });
  return (
    new Hono<AdminEnv>({ strict: false })
      .get('/usuarios', soloAdmin, query(consulta('GET /api/admin/usuarios/', filtrosUsuariosSchema)), async (c) =>
        responder(c, 'GET /api/admin/usuarios/', 200, await deps.adminUsuarios.listar(c.req.valid('query'))),
      )
      .post('/usuarios', soloAdmin, body(entrada('POST /api/admin/usuarios/', invitacionSchema)), async (c) =>
        responder(c, 'POST /api/admin/usuarios/', 201, await deps.invitaciones.invitar(c.req.valid('json'), c.var.adminActor)),
      )
      .post('/usuarios/importar', soloAdmin, async (c) => {
        const resultado = await withUpload(c.req.raw, deps.tempDir, importacion, async (campos, archivo) =>
          deps.adminUsuarios.importar(c.var.adminActor, await textoCsv(archivo), campos.confirmar === 'true'),
        );
        return responder(c, 'POST /api/admin/usuarios/importar/', 200, resultado);
      })
      // A fresh activation link; the older link stops working.
      .post(
        '/usuarios/reenviar-activacion',
        soloAdmin,
        body(entrada('POST /api/admin/usuarios/reenviar-activacion/', reenvioSchema)),
        async (c) =>
          responder(
            c,
            'POST /api/admin/usuarios/reenviar-activacion/',
            200,
            reenviada(await deps.invitaciones.reenviar(c.req.valid('json'), c.var.adminActor)),
          ),
      )
      .post('/usuarios/:id/reenviar-activacion', soloAdmin, params(idParam), async (c) =>
        responder(
          c,
          'POST /api/admin/usuarios/{id}/reenviar-activacion/',
          200,
          reenviada(await deps.invitaciones.reenviar(c.req.valid('param'), c.var.adminActor)),
        ),
      )
      .patch(
        '/usuarios/:id',
        soloAdmin,
        params(idParam),
        body(entrada('PATCH /api/admin/usuarios/{id}/', cambioUsuarioSchema)),
        async (c) =>
          responder(
            c,
            'PATCH /api/admin/usuarios/{id}/',
            200,
            await deps.adminUsuarios.actualizar(c.var.adminActor, c.req.valid('param').id, c.req.valid('json')),
          ),
      )
      .get('/registro', soloAdmin, query(consulta('GET /api/admin/registro/', filtrosRegistroSchema)), async (c) =>
        responder(c, 'GET /api/admin/registro/', 200, await deps.registro.listar(c.req.valid('query'))),
      )
  );
}

/** /api/manuales/ (docs/SPEC.md section 7) and the manual thumbnails. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import { busquedaManualesSchema, manualEdicionSchema, manualSchema } from '../../validation/manuales.ts';
import { consultaMiniaturaSchema } from '../../validation/miniaturas.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { withUploadOrSubida } from '../http/archivo-o-subida.server.ts';
import { descarga, fileResponse } from '../http/file-response.server.ts';
import { responderMiniatura } from '../media/miniaturas.server.ts';
import type { ManualesService } from '../services/manuales.server.ts';
import type { Comentario } from '../services/recursos.server.ts';
import type { SubidasService } from '../services/subidas.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { consulta, entrada, formulario, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado, soloAdmin } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { conLicencia, sesionOPublico } from './publico.server.ts';
import { comentarioRecursoSchema, recursosRoutes } from './recursos.server.ts';
import { id, idParam } from './schemas.server.ts';

const comentarioEntrada = entrada('POST /api/manuales/comentarios/', comentarioRecursoSchema('id_manual', 'Manual no válido'));

const likeEntrada = entrada(
  'POST /api/manuales/like/',
  z.object({
    id_usuario: id().optional(),
    id_manual: id('Manual no válido'),
    add: z.coerce.boolean({ error: 'add debe ser true o false' }),
  }),
).transform(({ id_manual, ...l }) => ({ ...l, id_recurso: id_manual }));

const comentarioManual = (c: Comentario): Esquema<'ComentarioRecurso'> => ({ ...c, tipo_recurso: 'id_manual' });

export function manualesRoutes(manuales: ManualesService, deps: { keys: TokenKeys; storage: Storage; subidas: SubidasService }) {
  const auth = autenticado(deps.keys);
  // Downloads are plain links (the browser saves the file as it arrives), so they carry the cookie.
  // A public item's (issue 34) also answer a visitor with no session.
  const conCookie = sesionOPublico(deps.keys, manuales.esPublico);
  return new Hono<AppEnv>({ strict: false })
    .get('/', auth, query(consulta('GET /api/manuales/', busquedaManualesSchema)), async (c) =>
      responder(c, 'GET /api/manuales/', 200, await manuales.listar(c.req.valid('query'), actor(c))),
    )
    .post('/', auth, async (c) => {
      // Refuse before receiving a large body nobody may send.
      soloAdmin(c);
      const form = formulario('POST /api/manuales/', { maxFileBytes: manuales.limiteBytes(), fields: manualSchema, file: 'archivo' });
      const subida = deps.subidas.para(actor(c), 'manual');
      const manual = await withUploadOrSubida(c.req.raw, deps.storage.tempDir, form, subida, (input, archivo) =>
        manuales.crear(actor(c), input, archivo),
      );
      return responder(c, 'POST /api/manuales/', 201, manual);
    })
    .put('/', auth, body(entrada('PUT /api/manuales/', manualEdicionSchema)), async (c) => {
      await manuales.editar(actor(c), c.req.valid('json'));
      return sinContenido(c, 'PUT /api/manuales/');
    })
    .route(
      '/',
      recursosRoutes(manuales.recursos, deps.keys, {
        tipo: 'manual',
        prefijo: '/api/manuales',
        comentario: comentarioEntrada,
        like: likeEntrada,
        salida: comentarioManual,
      }),
    )
    .get('/:id', auth, params(idParam), async (c) =>
      responder(c, 'GET /api/manuales/{id}/', 200, await manuales.obtener(c.req.valid('param').id, actor(c))),
    )
    .delete('/:id', auth, params(idParam), async (c) => {
      await manuales.eliminar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/manuales/{id}/');
    })
    .get('/:id/descargar', conCookie, params(idParam), async (c) => {
      const { key, titulo, licencia } = await manuales.archivo(c.req.valid('param').id, actor(c));
      return conLicencia(await descarga(deps.storage, key, `${titulo}.pdf`, c.req.header('range')), licencia);
    })
    .get('/:id/leer', conCookie, params(idParam), async (c) => {
      const { key, titulo } = await manuales.archivo(c.req.valid('param').id, actor(c));
      return fileResponse(deps.storage, {
        key,
        contentType: 'application/pdf',
        filename: `${titulo}.pdf`,
        disposition: 'inline',
        range: c.req.header('range'),
        directa: true,
      });
    });
}

/** /miniaturas/manuales/{id}/ and its card variants (`?ancho=`): img tags cannot send headers, so the session cookie is accepted. */
export function miniaturasManualesRoutes(manuales: ManualesService, deps: { keys: TokenKeys; storage: Storage }) {
  const consultaMiniatura = query(consulta('GET /miniaturas/manuales/{id}/', consultaMiniaturaSchema));
  return new Hono<AppEnv>({ strict: false }).get(
    '/:id',
    sesionOPublico(deps.keys, manuales.esPublico),
    params(idParam),
    consultaMiniatura,
    async (c) => {
      const clave = await manuales.miniatura(c.req.valid('param').id, actor(c));
      return responderMiniatura(deps.storage, { clave, etiqueta: 'PDF', ...c.req.valid('query') });
    },
  );
}

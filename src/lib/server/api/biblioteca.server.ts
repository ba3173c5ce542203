/** /api/bdocente/ (docs/SPEC.md section 7) and /miniaturas/bdocente/{id}/. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import { busquedaMaterialesSchema, coberturaSchema, materialEdicionSchema, materialSchema } from '../../validation/biblioteca.ts';
import { consultaMiniaturaSchema } from '../../validation/miniaturas.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { withUploadOrSubida } from '../http/archivo-o-subida.server.ts';
import { descarga } from '../http/file-response.server.ts';
import { responderMiniatura } from '../media/miniaturas.server.ts';
import type { BibliotecaService } from '../services/biblioteca.server.ts';
import type { Comentario } from '../services/recursos.server.ts';
import type { SubidasService } from '../services/subidas.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { consulta, entrada, formulario, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { conLicencia, sesionOPublico } from './publico.server.ts';
import { comentarioRecursoSchema, recursosRoutes } from './recursos.server.ts';
import { id, idParam } from './schemas.server.ts';

const comentarioEntrada = entrada('POST /api/bdocente/comentarios/', comentarioRecursoSchema('id_material_docente', 'Material no válido'));

const likeEntrada = entrada(
  'POST /api/bdocente/like/',
  z.object({
    id_usuario: id().optional(),
    id_material: id('Material no válido'),
    add: z.coerce.boolean({ error: 'add debe ser true o false' }),
  }),
).transform(({ id_material, ...l }) => ({ ...l, id_recurso: id_material }));

const comentarioMaterial = (c: Comentario): Esquema<'ComentarioRecurso'> => ({ ...c, tipo_recurso: 'id_material_docente' });

type Deps = { keys: TokenKeys; storage: Storage };

export function bibliotecaRoutes(materiales: BibliotecaService, deps: Deps & { subidas: SubidasService }) {
  const auth = autenticado(deps.keys);
  // Downloads are plain links (the browser saves the file as it arrives), so they carry the cookie.
  // A public item's (issue 34) also answer a visitor with no session.
  const conCookie = sesionOPublico(deps.keys, materiales.esPublico);
  return (
    new Hono<AppEnv>({ strict: false })
      .get('/', auth, query(consulta('GET /api/bdocente/', busquedaMaterialesSchema)), async (c) =>
        responder(c, 'GET /api/bdocente/', 200, await materiales.listar(c.req.valid('query'), actor(c))),
      )
      .post('/', auth, async (c) => {
        const form = formulario('POST /api/bdocente/', { maxFileBytes: materiales.limiteBytes(), fields: materialSchema, file: 'archivo' });
        const subida = deps.subidas.para(actor(c), 'material');
        const material = await withUploadOrSubida(c.req.raw, deps.storage.tempDir, form, subida, (input, archivo) =>
          materiales.crear(actor(c), input, archivo),
        );
        return responder(c, 'POST /api/bdocente/', 201, material);
      })
      // Before the `/:id` routes, which would take 'cobertura' for an id.
      .get('/cobertura', auth, query(consulta('GET /api/bdocente/cobertura/', coberturaSchema)), async (c) =>
        responder(c, 'GET /api/bdocente/cobertura/', 200, await materiales.cobertura(c.req.valid('query'), actor(c))),
      )
      .put('/', auth, body(entrada('PUT /api/bdocente/', materialEdicionSchema)), async (c) => {
        await materiales.editar(actor(c), c.req.valid('json'));
        return sinContenido(c, 'PUT /api/bdocente/');
      })
      .route(
        '/',
        recursosRoutes(materiales.recursos, deps.keys, {
          tipo: 'material',
          prefijo: '/api/bdocente',
          comentario: comentarioEntrada,
          like: likeEntrada,
          salida: comentarioMaterial,
        }),
      )
      .get('/:id', auth, params(idParam), async (c) =>
        responder(c, 'GET /api/bdocente/{id}/', 200, await materiales.obtener(c.req.valid('param').id, actor(c))),
      )
      .delete('/:id', auth, params(idParam), async (c) => {
        await materiales.eliminar(actor(c), c.req.valid('param').id);
        return sinContenido(c, 'DELETE /api/bdocente/{id}/');
      })
      .get('/:id/descargar', conCookie, params(idParam), async (c) => {
        const { key, nombre, licencia } = await materiales.archivo(c.req.valid('param').id, actor(c));
        return conLicencia(await descarga(deps.storage, key, nombre, c.req.header('range')), licencia);
      })
  );
}

/** /miniaturas/bdocente/{id}/ and its card variants (`?ancho=`): img tags cannot send headers, so the session cookie is accepted. */
export function miniaturasBibliotecaRoutes(materiales: BibliotecaService, deps: Deps) {
  const consultaMiniatura = query(consulta('GET /miniaturas/bdocente/{id}/', consultaMiniaturaSchema));
  return new Hono<AppEnv>({ strict: false }).get(
    '/:id',
    sesionOPublico(deps.keys, materiales.esPublico),
    params(idParam),
    consultaMiniatura,
    async (c) => {
      const thumb = await materiales.miniatura(c.req.valid('param').id, actor(c));
      const pedido = 'etiqueta' in thumb ? { clave: null, etiqueta: thumb.etiqueta } : { clave: thumb.key, etiqueta: 'PDF' as const };
      return responderMiniatura(deps.storage, { ...pedido, ...c.req.valid('query') });
    },
  );
}

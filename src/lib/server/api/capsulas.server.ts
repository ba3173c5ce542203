/** /api/capsulas/ (docs/SPEC.md section 7), /streaming/{id}/{file} and /miniaturas/capsulas/{id}/. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import { busquedaCapsulasSchema, capsulaEdicionSchema, capsulaSchema } from '../../validation/capsulas.ts';
import { comentarioSchema } from '../../validation/comentarios.ts';
import { filtroId } from '../../validation/listas.ts';
import { consultaMiniaturaSchema } from '../../validation/miniaturas.ts';
import { cadena } from '../../validation/texto.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { withUploadOrSubida } from '../http/archivo-o-subida.server.ts';
import { descarga, fileResponse } from '../http/file-response.server.ts';
import { responderMiniatura } from '../media/miniaturas.server.ts';
import type { CapsulasService } from '../services/capsulas.server.ts';
import type { Comentario } from '../services/recursos.server.ts';
import type { SubidasService } from '../services/subidas.server.ts';
import { idiomaDeArchivo, type SubtitulosService } from '../services/subtitulos.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { consulta, entrada, formulario, responder, sinContenido } from './contrato.server.ts';
import { type AppEnv, actor, autenticado, soloAdmin } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { conLicencia, sesionOPublico } from './publico.server.ts';
import { recursosRoutes } from './recursos.server.ts';
import { id, idParam } from './schemas.server.ts';
import { respuestaVtt } from './subtitulos.server.ts';

const comentarioEntrada = entrada(
  'POST /api/capsulas/comentarios/',
  comentarioSchema.extend({
    id_usuario: id().optional(),
    id_capsula: id('Cápsula no válida'),
    id_respuesta_comentario: id().nullable().optional(),
  }),
).transform(({ id_capsula, ...c }) => ({ ...c, id_recurso: id_capsula }));

const likeEntrada = entrada(
  'POST /api/capsulas/like/',
  z.object({
    id_usuario: id().optional(),
    id_capsula: id('Cápsula no válida'),
    add: z.coerce.boolean({ error: 'add debe ser true o false' }),
  }),
).transform(({ id_capsula, ...l }) => ({ ...l, id_recurso: id_capsula }));

/** Which file Descargar gives: the uploaded original, or the light version made by the video job. */
const versionDescarga = consulta(
  'GET /api/capsulas/{id}/descargar/',
  z.object({
    version: z.enum(['original', 'liviana'], { error: "La versión debe ser 'original' o 'liviana'" }).default('original'),
  }),
);

const comentarioCapsula = ({ id_recurso, ...c }: Comentario): Esquema<'ComentarioCapsula'> => ({ ...c, id_capsula: id_recurso });

type Deps = { keys: TokenKeys; storage: Storage };

export function capsulasRoutes(capsulas: CapsulasService, deps: Deps & { subidas: SubidasService }) {
  const auth = autenticado(deps.keys);
  // Downloads are plain links (the browser saves the file as it arrives), so they carry the cookie.
  // A public item's (issue 34) also answer a visitor with no session.
  const conCookie = sesionOPublico(deps.keys, capsulas.esPublico);
  return new Hono<AppEnv>({ strict: false })
    .get('/', auth, query(consulta('GET /api/capsulas/', busquedaCapsulasSchema)), async (c) =>
      responder(c, 'GET /api/capsulas/', 200, await capsulas.listar(c.req.valid('query'), actor(c))),
    )
    .post('/', auth, async (c) => {
      // Refuse before receiving a large body nobody may send.
      soloAdmin(c);
      const form = formulario('POST /api/capsulas/', { maxFileBytes: capsulas.limiteBytes(), fields: capsulaSchema, file: 'archivo' });
      const subida = deps.subidas.para(actor(c), 'capsula');
      const capsula = await withUploadOrSubida(c.req.raw, deps.storage.tempDir, form, subida, (input, archivo) =>
        capsulas.crear(actor(c), input, archivo),
      );
      return responder(c, 'POST /api/capsulas/', 201, capsula);
    })
    .put('/', auth, body(entrada('PUT /api/capsulas/', capsulaEdicionSchema)), async (c) => {
      await capsulas.editar(actor(c), c.req.valid('json'));
      return sinContenido(c, 'PUT /api/capsulas/');
    })
    .get('/procesando', auth, query(consulta('GET /api/capsulas/procesando', z.object({ usuario_id: filtroId }))), async (c) =>
      responder(c, 'GET /api/capsulas/procesando', 200, await capsulas.procesando(actor(c), c.req.valid('query').usuario_id)),
    )
    .route(
      '/',
      recursosRoutes(capsulas.recursos, deps.keys, {
        tipo: 'capsula',
        prefijo: '/api/capsulas',
        comentario: comentarioEntrada,
        like: likeEntrada,
        salida: comentarioCapsula,
      }),
    )
    .get('/:id', auth, params(idParam), async (c) =>
      responder(c, 'GET /api/capsulas/{id}/', 200, await capsulas.obtener(c.req.valid('param').id, actor(c))),
    )
    .delete('/:id', auth, params(idParam), async (c) => {
      await capsulas.eliminar(actor(c), c.req.valid('param').id);
      return sinContenido(c, 'DELETE /api/capsulas/{id}/');
    })
    .get('/:id/descargar', conCookie, params(idParam), query(versionDescarga), async (c) => {
      const id = c.req.valid('param').id;
      const range = c.req.header('range');
      if (c.req.valid('query').version === 'original') {
        const { key, nombre, licencia } = await capsulas.original(id, actor(c));
        return conLicencia(await descarga(deps.storage, key, nombre, range), licencia);
      }
      const { key, nombre, licencia } = await capsulas.liviana(id, actor(c));
      return conLicencia(
        await fileResponse(deps.storage, { key, contentType: 'video/mp4', filename: nombre, range, directa: true }),
        licencia,
      );
    });
}

/** HLS files and captions: the player's requests carry the session cookie (a video element sends no header). */
export function streamingRoutes(capsulas: CapsulasService, deps: Deps & { subtitulos: SubtitulosService }) {
  const archivo = z.object({ id: id(), file: cadena().max(64, 'Archivo no válido') });
  return new Hono<AppEnv>({ strict: false }).get(
    '/:id/:file',
    sesionOPublico(deps.keys, capsulas.esPublico),
    params(archivo),
    async (c) => {
      const { id: capsula, file } = c.req.valid('param');
      // Captions (subtitulos-{idioma}.vtt) come from the database; an unknown language is a 404 below.
      const idioma = idiomaDeArchivo(file);
      if (idioma) return respuestaVtt(c, await deps.subtitulos.vtt(capsula, idioma, actor(c)));
      const { key, tipo } = await capsulas.streaming(capsula, file, actor(c));
      // Renditions never change once made: the browser may keep them for the session. Segments may
      // come from the bucket or its CDN; playlists always from here (the player resolves the
      // segments' names against the playlist's URL, so they come back here to be checked).
      return fileResponse(deps.storage, {
        key,
        contentType: tipo,
        range: c.req.header('range'),
        cacheControl: 'private, max-age=3600',
        directa: key.endsWith('.ts'),
      });
    },
  );
}

/** /miniaturas/capsulas/{id}/ (the poster) and its card variants (`?ancho=`), with the session cookie. */
export function miniaturasCapsulasRoutes(capsulas: CapsulasService, deps: Deps) {
  const consultaMiniatura = query(consulta('GET /miniaturas/capsulas/{id}/', consultaMiniaturaSchema));
  return new Hono<AppEnv>({ strict: false }).get(
    '/:id',
    sesionOPublico(deps.keys, capsulas.esPublico),
    params(idParam),
    consultaMiniatura,
    async (c) => {
      const clave = await capsulas.poster(c.req.valid('param').id, actor(c));
      return responderMiniatura(deps.storage, { clave, etiqueta: 'Video', ...c.req.valid('query') });
    },
  );
}

/**
 * Community and profiles under /api/usuarios (docs/SPEC.md section 7,) and the profile photos
 * under /miniaturas. Mounted after usuariosRoutes, and user ids only match digits, so the account
 * routes (/activar-cuenta, /recuperar-cuenta, /cambiar-contrasena) are never taken for an id.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { contactoSchema } from '../../validation/cuentas.ts';
import {
  areaPerfilSchema,
  busquedaProfesoresSchema,
  datosPersonalesSchema,
  especialidadSchema,
  nivelPerfilSchema,
} from '../../validation/perfil.ts';
import { cadena } from '../../validation/texto.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { withUploadOrSubida } from '../http/archivo-o-subida.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import type { ComunidadService } from '../services/comunidad.server.ts';
import type { PerfilesService } from '../services/perfiles.server.ts';
import type { SubidasService } from '../services/subidas.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import { consulta, entrada, formulario, responder } from './contrato.server.ts';
import { type AppEnv, actor, autenticado, mismoUsuario } from './env.server.ts';
import { ApiError, sinPermisos } from './errors.server.ts';
import { body, params, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const nombreParam = z.object({
  id: id(),
  nombre: cadena({ error: 'Nombre no válido' }).trim().min(1, 'Nombre no válido').max(200, 'Nombre no válido'),
});

const edicionEntrada = entrada('PUT /api/usuarios/{id}/', datosPersonalesSchema.extend({ usuario: id().optional() }));

const contactoEntrada = entrada(
  'POST /api/usuarios/{id}/enviar-email/',
  contactoSchema.extend({
    id_usuario_receiver: id('Destinatario no válido'),
    id_usuario_sender: id().optional(),
  }),
);

/** The photo form carries only the file. */
const fotoEntrada = z.object({});

/** Digits only: '/activar-cuenta' and the other account routes are not user ids. */
const ID = ':id{[0-9]+}';

export function perfilesRoutes(deps: {
  comunidad: ComunidadService;
  perfiles: PerfilesService;
  keys: TokenKeys;
  storage: Storage;
  subidas: SubidasService;
}) {
  const { comunidad, perfiles } = deps;
  const auth = autenticado(deps.keys);

  return new Hono<AppEnv>({ strict: false })
    .get('/profesores', auth, query(consulta('GET /api/usuarios/profesores/', busquedaProfesoresSchema)), async (c) =>
      responder(c, 'GET /api/usuarios/profesores/', 200, await comunidad.buscar(c.req.valid('query'), actor(c))),
    )
    .get('/profesores/especialidades', auth, async (c) =>
      responder(c, 'GET /api/usuarios/profesores/especialidades/', 200, await perfiles.especialidades()),
    )
    .post(
      `/profesores/${ID}/especialidades`,
      auth,
      params(idParam),
      body(entrada('POST /api/usuarios/profesores/{id}/especialidades/', especialidadSchema)),
      async (c) => {
        const perfil = await perfiles.agregarEspecialidad(actor(c), c.req.valid('param').id, c.req.valid('json').especialidad);
        return responder(c, 'POST /api/usuarios/profesores/{id}/especialidades/', 201, perfil);
      },
    )
    .delete(`/profesores/${ID}/especialidades/:nombre`, auth, params(nombreParam), async (c) => {
      const { id: idUsuario, nombre } = c.req.valid('param');
      const perfil = await perfiles.quitarEspecialidad(actor(c), idUsuario, nombre);
      return responder(c, 'DELETE /api/usuarios/profesores/{id}/especialidades/{nombre}/', 200, perfil);
    })
    .post(
      `/profesores/${ID}/areas`,
      auth,
      params(idParam),
      body(entrada('POST /api/usuarios/profesores/{id}/areas/', areaPerfilSchema)),
      async (c) => {
        const perfil = await perfiles.agregarArea(actor(c), c.req.valid('param').id, c.req.valid('json').area);
        return responder(c, 'POST /api/usuarios/profesores/{id}/areas/', 201, perfil);
      },
    )
    .delete(`/profesores/${ID}/areas/:nombre`, auth, params(nombreParam), async (c) => {
      const { id: idUsuario, nombre } = c.req.valid('param');
      return responder(
        c,
        'DELETE /api/usuarios/profesores/{id}/areas/{nombre}/',
        200,
        await perfiles.quitarArea(actor(c), idUsuario, nombre),
      );
    })
    .post(
      `/profesores/${ID}/niveles`,
      auth,
      params(idParam),
      body(entrada('POST /api/usuarios/profesores/{id}/niveles/', nivelPerfilSchema)),
      async (c) => {
        const perfil = await perfiles.agregarNivel(actor(c), c.req.valid('param').id, c.req.valid('json').nivel);
        return responder(c, 'POST /api/usuarios/profesores/{id}/niveles/', 201, perfil);
      },
    )
    .delete(`/profesores/${ID}/niveles/:nombre`, auth, params(nombreParam), async (c) => {
      const { id: idUsuario, nombre } = c.req.valid('param');
      return responder(
        c,
        'DELETE /api/usuarios/profesores/{id}/niveles/{nombre}/',
        200,
        await perfiles.quitarNivel(actor(c), idUsuario, nombre),
      );
    })
    .get(`/${ID}`, auth, params(idParam), async (c) =>
      responder(c, 'GET /api/usuarios/{id}/', 200, await perfiles.obtener(actor(c), c.req.valid('param').id)),
    )
    .put(
      `/${ID}`,
      auth,
      params(idParam),
      async (c, next) => {
        // Permission before validation: nobody learns the rules of another person's form.
        mismoUsuario(c, c.req.valid('param').id);
        await next();
      },
      body(edicionEntrada),
      async (c) => {
        const { id: pathId } = c.req.valid('param');
        const { usuario, ...datos } = c.req.valid('json');
        if (usuario !== undefined && usuario !== pathId) throw sinPermisos();
        return responder(c, 'PUT /api/usuarios/{id}/', 200, await perfiles.actualizar(actor(c), pathId, datos));
      },
    )
    .post(`/${ID}/enviar-email`, auth, params(idParam), body(contactoEntrada), async (c) => {
      const { id: pathId } = c.req.valid('param');
      const input = c.req.valid('json');
      mismoUsuario(c, pathId);
      if (input.id_usuario_sender !== undefined) mismoUsuario(c, input.id_usuario_sender);
      await comunidad.contactar(pathId, input.id_usuario_receiver, input);
      return responder(c, 'POST /api/usuarios/{id}/enviar-email/', 200, { detail: 'Mensaje enviado!' });
    })
    .post(`/${ID}/foto`, auth, params(idParam), async (c) => {
      // Refuse before receiving a body nobody may send.
      mismoUsuario(c, c.req.valid('param').id);
      const form = formulario('POST /api/usuarios/{id}/foto/', {
        maxFileBytes: perfiles.limiteFotoBytes(),
        fields: fotoEntrada,
        file: 'foto',
      });
      const subida = deps.subidas.para(actor(c), 'foto');
      const url = await withUploadOrSubida(c.req.raw, deps.storage.tempDir, form, subida, (_, foto) =>
        perfiles.subirFoto(actor(c), c.req.valid('param').id, foto),
      );
      return responder(c, 'POST /api/usuarios/{id}/foto/', 201, {
        detail: 'Tu foto de perfil se actualizo correctamente!',
        foto_perfil: url,
      });
    })
    .get(`/${ID}/contenidos-subidos`, auth, params(idParam), async (c) =>
      responder(c, 'GET /api/usuarios/{id}/contenidos-subidos/', 200, await perfiles.contenidosSubidos(actor(c), c.req.valid('param').id)),
    );
}

/**
 * /miniaturas/usuarios/{id} (200x200) and /miniaturas/usuarios_min/{id}: the session cookie is
 * accepted (img tags send no headers). The URL carries the photo's version (?v=), so a request
 * for the current version may be kept for a year; any other is revalidated.
 */
export function miniaturasUsuariosRoutes(perfiles: PerfilesService, deps: { keys: TokenKeys; storage: Storage }, tamano: 'grande' | 'min') {
  return new Hono<AppEnv>({ strict: false }).get(`/${ID}`, autenticado(deps.keys, { cookie: true }), params(idParam), async (c) => {
    const foto = await perfiles.foto(c.req.valid('param').id, tamano);
    if (!foto) throw new ApiError(404, 'El usuario no tiene foto de perfil');
    const vigente = c.req.query('v') === foto.version;
    return fileResponse(deps.storage, {
      key: foto.key,
      contentType: 'image/webp',
      cacheControl: vigente ? 'private, max-age=31536000, immutable' : 'private, no-cache',
    });
  });
}

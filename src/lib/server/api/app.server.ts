/**
 * The HTTP API: one Hono app with one sub-app per section, mounted over services built outside
 * HTTP (services/services.server.ts, decision 0051). The HTTP server hands it /api, /auth,
 * /streaming, /miniaturas and /healthz before Astro (main.server.ts); tests build the app over
 * their own services and call `app.request()` with no server.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { renovador } from '../auth/renovacion.server.ts';
import { API_CACHE_CONTROL, API_HEADERS } from '../http/headers.server.ts';
import type { Health } from '../jobs/salud.server.ts';
import type { Logger } from '../log.server.ts';
import { HerramientaNoDisponible } from '../media/herramientas.server.ts';
import type { ServiceContext } from '../services/context.server.ts';
import type { Services } from '../services/services.server.ts';
import { createBloqueoSubidas } from '../storage/bloqueo-subidas.server.ts';
import { ALMACENAMIENTO_NO_RESPONDE, almacenamientoNoResponde, SIN_ESPACIO_ARCHIVO, sinEspacio } from '../storage/fallas.server.ts';
import { adminRoutes } from './admin.server.ts';
import { adminOperacionesRoutes } from './admin-operaciones.server.ts';
import { authRoutes } from './auth.server.ts';
import { adminBajaRoutes, bajaRoutes } from './baja.server.ts';
import { bibliotecaRoutes, miniaturasBibliotecaRoutes } from './biblioteca.server.ts';
import { capsulasRoutes, miniaturasCapsulasRoutes, streamingRoutes } from './capsulas.server.ts';
import { catalogosRoutes, curriculumRoutes } from './catalogos.server.ts';
import { coleccionesRoutes, guardadosRoutes, mochilaOaRoutes, mochilaRoutes } from './colecciones.server.ts';
import { curriculoRoutes } from './curriculo.server.ts';
import { adminDenunciasRoutes, denunciasRoutes } from './denuncias.server.ts';
import type { AppEnv } from './env.server.ts';
import { ApiError, errorResponse } from './errors.server.ts';
import { foroRoutes, miniaturasCategoriasRoutes } from './foro.server.ts';
import { manualesRoutes, miniaturasManualesRoutes } from './manuales.server.ts';
import { misDatosRoutes } from './mis-datos.server.ts';
import { notificacionesRoutes, preferenciasRoutes } from './notificaciones.server.ts';
import { identidadesRoutes, oidcRoutes } from './oidc.server.ts';
import { miniaturasUsuariosRoutes, perfilesRoutes } from './perfiles.server.ts';
import { adminPrivacidadRoutes, privacidadRoutes } from './privacidad.server.ts';
import { respaldosRoutes } from './respaldos.server.ts';
import { saludRoutes } from './salud.server.ts';
import { seguimientosRoutes } from './seguimientos.server.ts';
import { adminSegundoFactorRoutes, segundoFactorRoutes } from './segundo-factor.server.ts';
import { sesionesRoutes } from './sesiones.server.ts';
import { sinRuta } from './sin-ruta.server.ts';
import { subidasRoutes } from './subidas.server.ts';
import { subtitulosRoutes } from './subtitulos.server.ts';
import { usuariosRoutes } from './usuarios.server.ts';

export interface ApiDeps extends Pick<ServiceContext, 'db' | 'log' | 'jwtSecret' | 'now'> {
  /** Built once by the runtime (services.server.ts); the routes only call them. */
  services: Services;
  adminKey: string;
  secureCookies: boolean;
  health: Health;
}

const requestIdPattern = /^[\w.-]{8,64}$/;

export function createApi(deps: ApiDeps) {
  const { services } = deps;
  const { cuentas, catalogos, ayuda, invitaciones, manuales, capsulas, biblioteca, comunidad, perfiles, foro } = services;
  const { adminOperaciones, adminUsuarios, registro, notificaciones, subidas, subtitulos, denuncias, respaldos, curriculo } = services;
  // The storage the services use: a deletion waits while a backup runs.
  const storage = respaldos.almacenamiento;
  const keys = { secret: deps.jwtSecret, now: deps.now, sesiones: cuentas.sesiones };

  const app = new Hono<AppEnv>({ strict: false });
  const renovarSesion = renovador(cuentas, { secureCookies: deps.secureCookies });

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && requestIdPattern.test(incoming) ? incoming : randomUUID();
    const log: Logger = deps.log.child({ requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('renovarSesion', renovarSesion);
    c.set('limitePublico', services.limitePublico);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    for (const [name, value] of Object.entries(API_HEADERS)) c.header(name, value);
    // Per-user data: never stored by any cache (media and thumbnails set their own).
    if (!c.res.headers.has('cache-control')) c.header('cache-control', API_CACHE_CONTROL);
    log.info('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(error.status, error.body, error.headers);
    // The server's own faults, said as such (issue 28): a media tool that does not run, a full
    // disk, a bucket that does not answer. The service has undone what it began.
    const log = c.var.log ?? deps.log;
    if (error instanceof HerramientaNoDisponible) {
      log.error('media tool unavailable', { tipo: error.tipo, path: c.req.path });
      return errorResponse(503, { detail: error.message, statusCode: 503 }, { 'retry-after': '300' });
    }
    if (sinEspacio(error)) {
      log.error('no space left to store a file', { error, path: c.req.path });
      return errorResponse(507, { detail: SIN_ESPACIO_ARCHIVO, statusCode: 507 });
    }
    if (almacenamientoNoResponde(error)) {
      log.error('the storage refused a request', { error, path: c.req.path });
      return errorResponse(503, { detail: ALMACENAMIENTO_NO_RESPONDE, statusCode: 503 }, { 'retry-after': '60' });
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      // Hono's validator parses a JSON body before ours runs and rejects malformed JSON itself.
      const detail =
        status === 413
          ? 'El archivo supera el tamaño máximo permitido'
          : /json/i.test(error.message)
            ? 'El cuerpo de la solicitud no es un JSON válido'
            : 'Solicitud no válida';
      return errorResponse(status, { detail, statusCode: status });
    }
    log.error('unhandled error', { error, path: c.req.path });
    return errorResponse(500, { detail: 'Ocurrió un error inesperado. Inténtalo nuevamente.', statusCode: 500 });
  });

  // 404 for an unknown path, 405 (with Allow) for a known path and another method.
  app.notFound(sinRuta(app));

  app.route('/healthz', saludRoutes({ health: deps.health, keys, adminKey: deps.adminKey }));

  app.route(
    '/auth',
    authRoutes(cuentas, renovarSesion, { secureCookies: deps.secureCookies, baja: services.baja, segundoFactor: services.segundoFactor }),
  );
  // Sign-in with a school account (issue 32): the flow ends in the same session a password opens.
  app.route(
    '/auth/oidc',
    oidcRoutes({
      oidc: services.oidc,
      segundoFactor: services.segundoFactor,
      baja: services.baja,
      keys,
      secureCookies: deps.secureCookies,
      publicUrl: services.oidc.publicUrl,
    }),
  );
  app.route('/api/usuarios', usuariosRoutes({ cuentas, ayuda, keys }));
  // Leaving the platform and the console's requests (issue 31).
  app.route('/api/usuarios', bajaRoutes({ baja: services.baja, keys }));
  app.route('/api/admin', adminBajaRoutes({ baja: services.baja, keys, adminKey: deps.adminKey, now: deps.now }));
  app.route('/api/curriculum_escolar', curriculumRoutes(catalogos, keys));
  app.route('/api', catalogosRoutes(catalogos, keys));
  app.route('/api/admin', adminRoutes({ invitaciones, adminUsuarios, registro, keys, adminKey: deps.adminKey, tempDir: storage.tempDir }));
  app.route('/api/admin', adminOperacionesRoutes({ adminOperaciones, keys, adminKey: deps.adminKey }));
  app.route('/api/admin', adminDenunciasRoutes({ denuncias, keys, adminKey: deps.adminKey }));
  app.route('/api/admin', respaldosRoutes({ respaldos, keys, adminKey: deps.adminKey }));
  app.route('/api/admin', curriculoRoutes({ curriculo, keys, adminKey: deps.adminKey, tempDir: storage.tempDir }));
  app.route('/api/admin', adminPrivacidadRoutes({ privacidad: services.privacidad, keys, adminKey: deps.adminKey }));
  app.route('/api/privacidad', privacidadRoutes(services.privacidad, keys));
  app.route('/api/denuncias', denunciasRoutes(denuncias, keys));
  app.route('/api/manuales', manualesRoutes(manuales, { keys, storage, subidas }));
  app.route('/miniaturas/manuales', miniaturasManualesRoutes(manuales, { keys, storage }));
  app.route('/api/notificaciones', notificacionesRoutes(notificaciones, keys));
  app.route('/api/usuarios', preferenciasRoutes(notificaciones, keys));
  app.route('/api/usuarios', misDatosRoutes({ misDatos: services.misDatos, keys, storage }));
  app.route('/api/usuarios', sesionesRoutes({ sesiones: cuentas.sesiones, keys }));
  // Two-factor sign-in (issue 32): the person's enrolment and the admins' reset.
  app.route('/api/usuarios', segundoFactorRoutes({ segundoFactor: services.segundoFactor, keys }));
  app.route('/api/admin', adminSegundoFactorRoutes({ segundoFactor: services.segundoFactor, keys, adminKey: deps.adminKey }));
  app.route('/api/usuarios', identidadesRoutes({ oidc: services.oidc, keys }));
  // Community and profiles after usuariosRoutes, so the account routes match first.
  app.route('/api/usuarios', perfilesRoutes({ comunidad, perfiles, keys, storage, subidas }));
  app.route('/miniaturas/usuarios', miniaturasUsuariosRoutes(perfiles, { keys, storage }, 'grande'));
  app.route('/miniaturas/usuarios_min', miniaturasUsuariosRoutes(perfiles, { keys, storage }, 'min'));
  // The library (/api/bdocente) after catalogosRoutes, whose /api/bdocente/tipo/ must match first.
  app.route('/api/bdocente', bibliotecaRoutes(biblioteca, { keys, storage, subidas }));
  app.route('/miniaturas/bdocente', miniaturasBibliotecaRoutes(biblioteca, { keys, storage }));
  app.route('/api/capsulas', capsulasRoutes(capsulas, { keys, storage, subidas }));
  app.route('/api/capsulas', subtitulosRoutes(subtitulos, { keys, tempDir: storage.tempDir }));
  app.route('/streaming', streamingRoutes(capsulas, { keys, storage, subtitulos }));
  app.route('/miniaturas/capsulas', miniaturasCapsulasRoutes(capsulas, { keys, storage }));
  app.route('/api/foro', foroRoutes(foro, { keys, storage, now: deps.now, subidas }));
  app.route('/miniaturas/categorias', miniaturasCategoriasRoutes(foro, { keys, storage }));
  // Saved items and collections (issue 35).
  app.route('/api/guardados', guardadosRoutes(services.colecciones, keys));
  // The mochila first: it takes the session cookie, and the collections' routes want a bearer token.
  app.route('/api/colecciones', mochilaRoutes(services.colecciones, keys, storage));
  app.route('/api/oas', mochilaOaRoutes(services.colecciones, keys, storage));
  app.route('/api/colecciones', coleccionesRoutes(services.colecciones, keys));
  // Following (issue 35, decision 0074), with the stop link of its mail (no sign-in).
  app.route('/api/seguimientos', seguimientosRoutes(services.seguimientos, keys));
  // Resumable uploads (tus, issue 18): a finished one is sent as `id_subida` to the forms above.
  app.route('/api/subidas', subidasRoutes(subidas, { keys, locker: createBloqueoSubidas(deps.db, { log: deps.log }) }));

  return { app, keys, renovarSesion, usuarioActual: services.usuarioActual, services };
}

export type Api = ReturnType<typeof createApi>;

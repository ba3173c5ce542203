/**
 * The services' composition root (decision 0051): every service built once, by the runtime (the
 * web server, the worker, the CLIs) or a test, outside HTTP. The routes (api/app.server.ts) and
 * the pages use what this builds; the job runner gets the services' job handlers from here.
 */
import path from 'node:path';
import { createLimitePublico } from '../auth/limite-publico.server.ts';
import type { ProveedorOidc } from '../auth/oidc-proveedores.server.ts';
import { crearConteos } from '../db/conteos.server.ts';
import type { JobHandler, JobRunner } from '../jobs/runner.server.ts';
import { createAdminOperacionesService } from './admin-operaciones.server.ts';
import { createAdminUsuariosService } from './admin-usuarios.server.ts';
import { createAyudaService } from './ayuda.server.ts';
import { createBajaService } from './baja.server.ts';
import { createBibliotecaService } from './biblioteca.server.ts';
import { createCapsulasService } from './capsulas.server.ts';
import { createCatalogosService } from './catalogos.server.ts';
import { createColeccionesService } from './colecciones.server.ts';
import { createComunidadService } from './comunidad.server.ts';
import type { ServiceContext } from './context.server.ts';
import { createCuentasService } from './cuentas.server.ts';
import { createCurriculoService } from './curriculo.server.ts';
import { createDenunciasService } from './denuncias.server.ts';
import { createForoService } from './foro.server.ts';
import { createInicioService } from './inicio.server.ts';
import { createInvitacionesService } from './invitaciones.server.ts';
import { createMantenimientoService } from './mantenimiento.server.ts';
import { createManualesService } from './manuales.server.ts';
import { createMisDatosService } from './mis-datos.server.ts';
import { createNotificacionesService } from './notificaciones.server.ts';
import { createOidcService } from './oidc.server.ts';
import { createPerfilesService } from './perfiles.server.ts';
import { createPrimerosPasosService } from './primeros-pasos.server.ts';
import { createPrivacidadService } from './privacidad.server.ts';
import { createPublicacionService } from './publicacion.server.ts';
import { createPublicosService } from './publicos.server.ts';
import { createRegistroService } from './registro.server.ts';
import { createRespaldosService, type OpcionesRespaldos } from './respaldos.server.ts';
import { createSeguimientosService } from './seguimientos.server.ts';
import { createSegundoFactorService } from './segundo-factor.server.ts';
import { createSubidasService } from './subidas.server.ts';
import { createSubtitulosService } from './subtitulos.server.ts';
import { createUsuarioActual } from './usuario-actual.server.ts';

export interface ServicesDeps extends ServiceContext {
  /** Backups (issue 28): RESPALDOS_DIR and RESPALDOS_CONSERVAR; tests default to a folder under the storage's tempDir. */
  respaldos?: OpcionesRespaldos;
  /** Days sign-in addresses are kept (RETENCION_DIRECCIONES_DIAS, issue 31); 90 by default. */
  retencionDirecciones?: number;
  /** Admins must enrol a second factor (TOTP_ADMIN_OBLIGATORIO, issue 32); true by default. */
  totpAdminObligatorio?: boolean;
  /** The OpenID Connect providers (OIDC_PROVEEDORES, issue 32); none by default. */
  oidc?: ProveedorOidc[];
  /** Anonymous requests per address and minute to the public pages and files (PUBLICO_POR_MINUTO, issue 34); 300 by default. */
  publicoPorMinuto?: number;
}

export function createServices(entrada: ServicesDeps) {
  // Every service deletes files through the backups' storage: a deletion waits while a backup runs.
  const respaldos = createRespaldosService(
    entrada,
    entrada.respaldos ?? { dir: path.join(entrada.storage.tempDir, 'respaldos'), conservar: 7 },
  );
  const ctx: ServiceContext = { ...entrada, storage: respaldos.almacenamiento };
  const privacidad = createPrivacidadService(ctx, { retencionDias: entrada.retencionDirecciones });
  const cuentas = createCuentasService(ctx, { privacidad });
  const segundoFactor = createSegundoFactorService(ctx, {
    abrirSesion: cuentas.abrirSesion,
    adminObligatorio: entrada.totpAdminObligatorio ?? true,
  });
  const catalogos = createCatalogosService(ctx.db, ctx.now);
  const ayuda = createAyudaService(ctx);
  const invitaciones = createInvitacionesService(ctx, cuentas);
  const publicacion = createPublicacionService(ctx);
  // The list totals kept per version (decision 0081), one set for the materials and the manuals.
  const conteos = crearConteos(ctx.db);
  const manuales = createManualesService(ctx, { publicacion, conteos });
  const capsulas = createCapsulasService(ctx, { publicacion });
  const biblioteca = createBibliotecaService(ctx, { publicacion, conteos });
  const comunidad = createComunidadService(ctx);
  const perfiles = createPerfilesService(ctx, { manuales, capsulas, biblioteca });
  const foro = createForoService(ctx);
  const usuarioActual = createUsuarioActual(ctx);
  const adminOperaciones = createAdminOperacionesService(ctx);
  const adminUsuarios = createAdminUsuariosService(ctx, { cuentas, invitaciones });
  const registro = createRegistroService(ctx.db);
  const curriculo = createCurriculoService(ctx);
  const notificaciones = createNotificacionesService(ctx);
  const subidas = createSubidasService(ctx);
  const subtitulos = createSubtitulosService(ctx);
  const denuncias = createDenunciasService(ctx, { capsulas, biblioteca, manuales, foro, adminUsuarios });
  return {
    cuentas,
    /** Two-factor sign-in (issue 32): what follows a verified identity, enrolment, the admins' reset. */
    segundoFactor,
    catalogos,
    ayuda,
    invitaciones,
    manuales,
    capsulas,
    biblioteca,
    comunidad,
    perfiles,
    foro,
    adminOperaciones,
    adminUsuarios,
    registro,
    /** The console home's 'Primeros pasos' (issue 33). */
    primerosPasos: createPrimerosPasosService(ctx, { privacidad }),
    /** The privacy notice, its acceptance and the addresses' retention (issue 31). */
    privacidad,
    curriculo,
    notificaciones,
    subidas,
    subtitulos,
    denuncias,
    respaldos,
    /** Saved items and collections (issue 35). */
    colecciones: createColeccionesService(ctx),
    /** Following an OA, an area and level, a colleague or a forum category (issue 35, decision 0074). */
    seguimientos: createSeguimientosService(ctx),
    /** 'Mis datos' (issue 31): what is held about a person, and its copy. */
    misDatos: createMisDatosService(ctx),
    /** Sign-in with a school account (issue 32): OpenID Connect flows, linked providers, automatic accounts. */
    oidc: createOidcService(ctx, { proveedores: entrada.oidc ?? [] }),
    /** Leaving the platform and the console's requests (issue 31). */
    baja: createBajaService(ctx, { cuentas, capsulas, biblioteca, manuales, foro, subidas }),
    inicio: createInicioService(ctx, { notificaciones }),
    /** Who the signed-in person is, for the pages' session (http/session.server.ts). */
    usuarioActual,
    /** The network's default licence and the licence rule (issue 34), for the upload forms and /admin/licencias. */
    publicacion,
    /** What anyone may see without signing in (issue 34): the pages under /explorar/ and the sitemap. */
    publicos: createPublicosService(ctx.db, { capsulas, biblioteca, manuales }),
    /** The database's nightly VACUUM (ANALYZE) where no autovacuum runs: PGlite (issue 36, decision 0080). */
    mantenimiento: createMantenimientoService(ctx),
    /** The per-address limit of visitors with no session on the public pages and files (issue 34). */
    limitePublico: createLimitePublico({ max: entrada.publicoPorMinuto ?? 300, ventanaSegundos: 60, now: ctx.now }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** The services that run background work, each with its job handlers by type. */
const conTrabajos = (s: Services): { trabajos: Record<string, JobHandler> }[] => [
  s.capsulas,
  s.subidas,
  s.notificaciones,
  s.misDatos,
  s.colecciones,
  s.respaldos,
  s.privacidad,
  s.baja,
  s.mantenimiento,
];

/** Gives the runner every service's job handlers (any process whose runner may take a job). */
export function registrarTrabajos(services: Services, jobs: Pick<JobRunner, 'register'>): void {
  for (const servicio of conTrabajos(services)) {
    for (const [tipo, handler] of Object.entries(servicio.trabajos)) jobs.register(tipo, handler);
  }
}

/** Queues the recurring jobs unless already queued (at start-up; each run queues its next). */
export async function programarTrabajos(services: Services): Promise<void> {
  // The notifications' mail.
  await services.notificaciones.programar();
  // Expired resumable uploads removed (issue 18).
  await services.subidas.programar();
  // The daily backup (issue 28), at 03:00 Chile's time.
  await services.respaldos.programar();
  // Copies of personal data past their 7 days removed, hourly (issue 31).
  await services.misDatos.programar();
  // Mochilas built in the background past their 7 days removed, hourly (issue 35).
  await services.colecciones.programar();
  // Sign-in addresses older than RETENCION_DIRECCIONES_DIAS blanked, daily (issue 31).
  await services.privacidad.programar();
  // Accounts whose 14 days to change their mind have passed, erased hourly (issue 31).
  await services.baja.programar();
  // The embedded database vacuumed and analyzed, daily at 04:00 Chile's time (issue 36).
  await services.mantenimiento.programar();
}

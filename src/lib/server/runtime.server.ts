/**
 * Builds the process's parts once (database, mail, jobs, the services and, for the web server,
 * the API over them) and shares them with the pages. Server code is not bundled by Astro (see
 * astro.config.mjs), so the HTTP entry point and the pages import this same module instance.
 * The worker and the CLIs get the services and the job runner, not the HTTP API (decision 0051).
 */
import { type Api, createApi } from './api/app.server.ts';
import { type Config, exigirSecretoCompartido } from './config.server.ts';
import { paths, persistentSecret } from './data-dir.server.ts';
import { type Database, openDatabase } from './db/client.server.ts';
import { type AdminSeed, seedAdmin, seedCatalogos } from './db/seed.server.ts';
import { createJobRunner, type JobRunner } from './jobs/runner.server.ts';
import { createHealth, type Health } from './jobs/salud.server.ts';
import type { Logger } from './log.server.ts';
import { createMailer, type Mailer } from './mail/mailer.server.ts';
import { createOutbox } from './mail/outbox.server.ts';
import { crearVerificador, resolverHerramientas, type Verificador } from './media/herramientas.server.ts';
import { dirRespaldos } from './services/respaldos.server.ts';
import { createServices, programarTrabajos, registrarTrabajos, type Services } from './services/services.server.ts';
import { createStorage, type Storage } from './storage/storage.server.ts';

export interface Runtime {
  config: Config;
  log: Logger;
  database: Database;
  mailer: Mailer;
  storage: Storage;
  herramientas: Verificador;
  /** Readiness and the detail for alerting (GET /healthz, /healthz/detalle, /admin/trabajos). */
  health: Health;
  jobs: JobRunner;
  /** Built once, with their job handlers registered with `jobs` (services/services.server.ts). */
  services: Services;
  adminKey: string;
  admin: AdminSeed;
  /** Stops the job runner (finishing or releasing its job within `graceMs`) and closes the database. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The web server's runtime: the HTTP API mounted over the services. */
export interface WebRuntime extends Runtime {
  api: Api;
}

/** The domain of the sender's address, for Message-ID headers. */
const dominio = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'entredocentes.cl';

export async function createRuntime(config: Config, log: Logger, options?: { servicio?: 'web' }): Promise<WebRuntime>;
export async function createRuntime(config: Config, log: Logger, options: { servicio: 'worker' | 'cli' }): Promise<Runtime>;
export async function createRuntime(
  config: Config,
  log: Logger,
  options: { servicio?: 'web' | 'worker' | 'cli' } = {},
): Promise<Runtime | WebRuntime> {
  exigirSecretoCompartido(config);
  const dirs = paths(config.dataDir);
  const database = await openDatabase(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { pgliteDir: dirs.pglite });
  try {
    const admin = await database.exclusivo(async () => {
      await database.migrate();
      await seedCatalogos(database.db);
      return seedAdmin(database.db, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
    });
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: dirs.outbox, log });
    const jobsLog = log.child({ component: 'jobs' });
    const outbox = createOutbox({ db: database.db, mailer, log: jobsLog, domain: dominio(config.MAIL_FROM) });
    const jobs = createJobRunner({ db: database.db, log: jobsLog, outbox, servicio: options.servicio ?? 'web' });
    const adminKey = persistentSecret(config.dataDir, 'admin-key');
    const storage = await createStorage({
      url: config.STORAGE_URL,
      filesDir: dirs.files,
      presignedSeconds: config.STORAGE_PRESIGNED_SECONDS,
      publicUrl: config.STORAGE_PUBLIC_URL,
    });
    const herramientas = crearVerificador(resolverHerramientas(config));
    // A worker, or a web server that runs the jobs, answers for its own runner; a web server with
    // JOBS_IN_SERVER=false answers for the freshest worker's heartbeat.
    const ownRunner = options.servicio === 'worker' || config.JOBS_IN_SERVER;
    const health = createHealth({
      db: database.db,
      ping: database.ping,
      runnerId: ownRunner ? jobs.id : undefined,
      herramientas,
      storage,
      dataDir: config.dataDir,
    });
    const contexto = {
      db: database.db,
      log,
      jwtSecret: config.JWT_SECRET ?? persistentSecret(config.dataDir, 'jwt'),
      now: () => new Date(),
    };
    const services = createServices({
      ...contexto,
      config,
      storage,
      herramientas,
      jobs,
      respaldos: { dir: dirRespaldos(config), conservar: config.RESPALDOS_CONSERVAR },
      retencionDirecciones: config.RETENCION_DIRECCIONES_DIAS,
      totpAdminObligatorio: config.TOTP_ADMIN_OBLIGATORIO,
      oidc: config.OIDC_PROVEEDORES,
      publicoPorMinuto: config.PUBLICO_POR_MINUTO,
    });
    registrarTrabajos(services, jobs);
    await programarTrabajos(services);
    const runtime: Runtime = {
      config,
      log,
      database,
      mailer,
      storage,
      herramientas,
      health,
      jobs,
      services,
      adminKey,
      admin,
      async close(closeOptions) {
        await jobs.stop(closeOptions);
        await database.close();
      },
    };
    if (options.servicio === 'worker' || options.servicio === 'cli') return runtime;
    const api = createApi({ ...contexto, services, adminKey, secureCookies: config.PUBLIC_URL.startsWith('https:'), health });
    return { ...runtime, api };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

const key = Symbol.for('entre-docentes.runtime');
type Holder = { [key]?: WebRuntime };

export function setRuntime(runtime: WebRuntime | undefined): void {
  (globalThis as Holder)[key] = runtime;
}

export function getRuntime(): WebRuntime {
  const runtime = (globalThis as Holder)[key];
  if (!runtime) throw new Error('runtime not started: run the server with `npm start`');
  return runtime;
}

/**
 * Builds the process's services once (database, mail, jobs, API) and shares them with the Astro
 * endpoints and pages. Server code is not bundled by Astro (see astro.config.mjs), so the HTTP
 * entry point and the pages import this same module instance.
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
  api: Api;
  adminKey: string;
  admin: AdminSeed;
  /** Stops the job runner (finishing or releasing its job within `graceMs`) and closes the database. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The domain of the sender's address, for Message-ID headers. */
const dominio = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'entredocentes.cl';

export async function createRuntime(config: Config, log: Logger, options: { servicio?: 'web' | 'worker' | 'cli' } = {}): Promise<Runtime> {
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
    const api = createApi({
      db: database.db,
      log,
      config,
      storage,
      herramientas,
      jobs,
      jwtSecret: config.JWT_SECRET ?? persistentSecret(config.dataDir, 'jwt'),
      now: () => new Date(),
      adminKey,
      respaldos: { dir: dirRespaldos(config), conservar: config.RESPALDOS_CONSERVAR },
      secureCookies: config.PUBLIC_URL.startsWith('https:'),
      health,
    });
    // The recurring job that mails notifications (it queues its own next run; idempotent).
    await api.services.notificaciones.programar();
    // The recurring job that removes expired resumable uploads (issue 18).
    await api.services.subidas.programar();
    // The daily backup (issue 28), at 03:00 Chile's time.
    await api.services.respaldos.programar();
    return {
      config,
      log,
      database,
      mailer,
      storage,
      herramientas,
      health,
      jobs,
      api,
      adminKey,
      admin,
      async close(closeOptions) {
        await jobs.stop(closeOptions);
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

const key = Symbol.for('entre-docentes.runtime');
type Holder = { [key]?: Runtime };

export function setRuntime(runtime: Runtime | undefined): void {
  (globalThis as Holder)[key] = runtime;
}

export function getRuntime(): Runtime {
  const runtime = (globalThis as Holder)[key];
  if (!runtime) throw new Error('runtime not started: run the server with `npm start`');
  return runtime;
}

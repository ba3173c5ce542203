/**
 * In-process API harness: a fresh database (in-memory PGlite, or a new PostgreSQL database when
 * DATABASE_URL is set), the Hono app with a recording mailer and a controllable clock, and a
 * `call` helper that checks every response against openapi.yaml.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { createApi } from '../../src/lib/server/api/app.server.ts';
import type { ProveedorOidc } from '../../src/lib/server/auth/oidc-proveedores.server.ts';
import { hashPassword } from '../../src/lib/server/auth/password.server.ts';
import { openDatabase } from '../../src/lib/server/db/client.server.ts';
import { perfilesDocentes, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { createJobRunner } from '../../src/lib/server/jobs/runner.server.ts';
import { createHealth } from '../../src/lib/server/jobs/salud.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import type { Mailer, Message } from '../../src/lib/server/mail/mailer.server.ts';
import { createOutbox } from '../../src/lib/server/mail/outbox.server.ts';
import { crearVerificador, type Herramientas, resolverHerramientas } from '../../src/lib/server/media/herramientas.server.ts';
import { createServices, registrarTrabajos } from '../../src/lib/server/services/services.server.ts';
import { createDiskStorage, createStorage, type Storage } from '../../src/lib/server/storage/storage.server.ts';
import { expectMatchesContract } from './openapi.ts';
import { enServidor } from './postgres.ts';
import { S3_CREDENTIALS, startS3, type TestS3 } from './s3.ts';

export const ADMIN_KEY = 'test-admin-key-0123456789';
export const PASSWORD = 'Clave1234';
/** The services' settings in the test harness (small upload limits). */
export const CONFIG_PRUEBA = {
  PUBLIC_URL: 'http://localhost:4321',
  HELP_EMAIL: 'ayuda@example.cl',
  MAX_VIDEO_MB: 50,
  MAX_MANUAL_MB: 5,
  MAX_MATERIAL_MB: 5,
  MAX_IMAGEN_MB: 2,
  // A mochila over 1 MB is built by the background job (tests reach both paths with small files).
  MOCHILA_DIRECTA_MB: 1,
};

/**
 * With TEST_STORAGE=s3 the files go to a bucket of their own on one s3rver per test file, through
 * STORAGE_URL's path. The API files share their worker's modules (decision 0094): the project's
 * setup file (tests/api/setup.ts) closes the file's s3rver once the file is done.
 */
let s3: Promise<TestS3> | undefined;

/** Stops the current test file's s3rver, if it started one; the next file starts its own. */
export async function cerrarS3DelArchivo(): Promise<void> {
  const abierto = s3;
  s3 = undefined;
  if (abierto) await (await abierto).close();
}

async function freshStorage(filesDir: string) {
  if (process.env.TEST_STORAGE !== 's3') return { storage: createDiskStorage(filesDir), env: {} };
  Object.assign(process.env, S3_CREDENTIALS);
  s3 ??= startS3();
  const { url } = await (await s3).createBucket();
  return { storage: await createStorage({ url, filesDir }), env: { STORAGE_URL: url, ...S3_CREDENTIALS } };
}

/**
 * PASSWORD's hash, made once per file for the accounts the tests create (argon2id at its real
 * parameters, 35-120 ms of CPU on this machine): salted once, it signs in like any other. Tests of
 * hashing itself make their own (tests/unit/auth.test.ts, the password routes).
 */
let hashPrueba: Promise<string> | undefined;
const hashDePrueba = () => {
  hashPrueba ??= hashPassword(PASSWORD);
  return hashPrueba;
};

/** The run's migrated and seeded PGlite dump (tests/api/global-setup.ts), read once per file. */
let volcado: Blob | undefined;

/**
 * A new database of the kind the tests run on, migrated and seeded: a copy of the one the API
 * project's global setup made for this run (a PGlite dump, or a PostgreSQL template).
 */
function baseDePrueba() {
  const plantilla = inject('plantilla');
  if ('postgres' in plantilla) return freshDatabase({ plantilla: plantilla.postgres });
  volcado ??= new Blob([readFileSync(plantilla.pglite)]);
  return freshDatabase({ volcado });
}

/**
 * A new database of the kind the tests run on: in-memory PGlite, or a new PostgreSQL database with
 * DATABASE_URL. Empty, unless it starts as a copy of a PGlite dump (`volcado`) or of a PostgreSQL
 * template database (`plantilla`).
 */
export async function freshDatabase(desde: { volcado?: Blob; plantilla?: string } = {}) {
  const { volcado, plantilla } = desde;
  const url = process.env.DATABASE_URL;
  if (!url) return { database: await openDatabase({ volcado }), drop: async () => {} };
  const name = `ed_test_${randomBytes(6).toString('hex')}`;
  await enServidor(url, `create database ${name}${plantilla ? ` template ${plantilla}` : ''}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface CallOptions {
  json?: unknown;
  body?: BodyInit;
  token?: string;
  headers?: Record<string, string>;
  /** Skip the contract check (only for requests the contract deliberately does not describe). */
  unchecked?: boolean;
  /** The socket's peer address (default 203.0.113.7) and TRUST_PROXY (default 0), as the HTTP bridge passes them. */
  clientAddress?: string;
  trustProxy?: number;
}

export interface TestApiOptions {
  /** The media tools (default: what this machine has, found as the server finds them). */
  herramientas?: Herramientas;
  /** The files' folder (default: a new one under the system's temporary folder), e.g. a small tmpfs. */
  filesDir?: string;
  /** The files' storage, made over that folder (default: disk, or a bucket with TEST_STORAGE=s3). */
  storage?: (filesDir: string) => Promise<Storage>;
  /** OpenID Connect providers (OIDC_PROVEEDORES, issue 32); none by default. */
  oidc?: ProveedorOidc[];
  /** Anonymous requests per address and minute to the public files (PUBLICO_POR_MINUTO, issue 34); 300 by default. */
  publicoPorMinuto?: number;
}

export async function createTestApi(options: TestApiOptions = {}) {
  const { database, drop } = await baseDePrueba();
  // Applied already in the copy: this checks that nothing is left to apply.
  await database.migrate();
  const filesDir = options.filesDir ?? mkdtempSync(path.join(os.tmpdir(), 'ed-api-files-'));
  const { storage, env: storageEnv } = options.storage
    ? { storage: await options.storage(filesDir), env: {} }
    : await freshStorage(filesDir);
  const mails: Message[] = [];
  /** The recording mailer; a test swaps `mailer.send` to make the mail server fail. */
  const mailer: Mailer = { send: async (m) => void mails.push(m) };
  const outbox = createOutbox({
    db: database.db,
    mailer: { send: (m) => mailer.send(m) },
    log: createLogger('silent'),
    domain: 'example.cl',
  });
  const jobs = createJobRunner({ db: database.db, log: createLogger('silent'), outbox });
  const herramientas = crearVerificador(options.herramientas ?? resolverHerramientas());
  const health = createHealth({ db: database.db, ping: database.ping, runnerId: jobs.id, herramientas, storage, dataDir: filesDir });
  const clock = { now: new Date() };
  const contexto = {
    db: database.db,
    log: createLogger('silent'),
    jwtSecret: 'test-secret-that-is-long-enough-0123456789',
    now: () => clock.now,
  };
  // As the runtime does (runtime.server.ts): the services once, their jobs on the runner, the routes over them.
  const services = createServices({
    ...contexto,
    config: CONFIG_PRUEBA,
    storage,
    herramientas,
    jobs,
    oidc: options.oidc,
    publicoPorMinuto: options.publicoPorMinuto,
  });
  registrarTrabajos(services, jobs);
  const api = createApi({
    ...contexto,
    services,
    adminKey: ADMIN_KEY,
    secureCookies: false,
    // The harness's runner is driven by the tests (drain), never started: it counts as alive.
    health: {
      listo: health.listo,
      detalle: async () => {
        await jobs.heartbeat();
        return health.detalle();
      },
    },
  });

  async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await api.app.request(
      path,
      { method, headers, ...(body !== undefined ? { body } : {}) },
      { clientAddress: options.clientAddress ?? '203.0.113.7', trustProxy: options.trustProxy ?? 0 },
    );
    // Mail is queued by the request and sent by the job runner: send it now, as a runner would.
    await jobs.drainMail();
    // A 503 (health degraded, a media tool that does not run) and a 507 (no room to store) are
    // answers the contract lists and checks below; any other 5xx is a crash.
    if (response.status >= 500 && response.status !== 503 && response.status !== 507)
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.clone().text()}`);
    if (!options.unchecked) await expectMatchesContract(method, path, response);
    return response;
  }

  /** An active account, ready to sign in with PASSWORD. */
  async function createUser(options: { email?: string; admin?: boolean; activo?: boolean; nombre?: string } = {}) {
    const email = options.email ?? `docente.${randomBytes(4).toString('hex')}@example.cl`;
    const [row] = await database.db
      .insert(usuarios)
      .values({
        email,
        password_hash: options.activo === false ? null : await hashDePrueba(),
        activo: options.activo ?? true,
        primer_nombre: options.nombre ?? 'Ana',
        apellido_paterno: 'Pérez',
        rol: options.admin ? 'Administrador' : 'Profesor',
        groups: options.admin ? ['admin'] : [],
      })
      .returning();
    if (!row) throw new Error('user not created');
    if (!options.admin) await database.db.insert(perfilesDocentes).values({ id_usuario: row.id });
    return row;
  }

  async function login(email: string, password = PASSWORD) {
    const response = await call('POST', '/auth/login/', { json: { email, password } });
    if (response.status !== 200) throw new Error(`login failed: ${response.status}`);
    return (await response.json()) as { access: string; refresh: string; usuario: { id: number } };
  }

  /** A new active account, signed in: its id, email and access token. */
  async function session(options: Parameters<typeof createUser>[0] = {}) {
    const user = await createUser(options);
    return { id: user.id, email: user.email, token: (await login(user.email)).access };
  }

  /** The token at the end of the last mailed link to `to`. */
  function lastLinkTo(to: string): string {
    const mail = mails.filter((m) => m.to === to).at(-1);
    if (!mail?.link) throw new Error(`no mail with a link to ${to}`);
    return mail.link;
  }

  return {
    api,
    db: database.db,
    mails,
    mailer,
    clock,
    call,
    createUser,
    login,
    session,
    lastLinkTo,
    tokenFrom: (link: string) => decodeURIComponent(link.split('/').filter(Boolean).at(-1) ?? ''),
    findUser: async (email: string) => (await database.db.select().from(usuarios).where(eq(usuarios.email, email)))[0],
    storage,
    /** What a child process (a CLI, a worker) needs in its env to reach the same storage: {} on disk. */
    storageEnv,
    /** Runs every due background job now (tests do not start the polling loop). */
    jobs,
    close: async () => {
      await database.close();
      await drop();
      // A folder the caller gave is the caller's to remove (a mount point cannot be).
      if (!options.filesDir) rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;

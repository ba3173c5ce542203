/**
 * The database handle: PGlite persisted under DATA_DIR by default, PostgreSQL when DATABASE_URL
 * is set. Same schema, same SQL, same migrations on both.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { getTableName, type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTable } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Cambios, createCambios, registrarCambios } from './cambios.server.ts';
import { crearSentencias, type Sentencias } from './pglite-preparadas.server.ts';
import * as schema from './schema.server.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * The rows of a raw statement (`db.execute`), the same on both drivers: node-postgres and PGlite
 * both answer `{ rows }`, which Drizzle's shared type does not say.
 */
export async function filasDe<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * The next id of a table with a serial `id`, taken from its sequence before the row is written,
 * so the row's files can be stored under it first. A row then never commits before its files: a
 * backup whose snapshot holds the row finds them when it lists the storage, and a row is never
 * seen with a file still to come. An id taken and never used (the upload failed) leaves a gap.
 */
export async function reservarId(db: Pick<Db, 'execute'>, tabla: PgTable): Promise<number> {
  const [fila] = await filasDe<{ id: number }>(db, sql`select nextval(pg_get_serial_sequence(${getTableName(tabla)}, 'id'))::int as id`);
  if (!fila) throw new Error(`no id from the sequence of ${getTableName(tabla)}`);
  return fila.id;
}

/**
 * A statement built and prepared once per database handle (the server's, a test's, a
 * transaction's) from `preparar`, for module-level functions that take the handle as an argument.
 */
export function preparadaPorBase<P>(preparar: (db: Db) => P): (db: Db) => P {
  const hechas = new WeakMap<Db, P>();
  return (db) => {
    let preparada = hechas.get(db);
    if (!preparada) {
      preparada = preparar(db);
      hechas.set(db, preparada);
    }
    return preparada;
  };
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Apply the committed migrations in ./drizzle. */
  migrate(): Promise<void>;
  /**
   * Runs `fn` while no other process sharing the database runs its own (start-up's migrations and
   * seeding): several servers and workers started at once after an upgrade migrate once, in turn.
   */
  exclusivo<T>(fn: () => Promise<T>): Promise<T>;
  /** True when a trivial query answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The advisory lock key of start-up (any fixed 64-bit number, unique to this application). */
const CLAVE_ARRANQUE = 7_319_204_551;

const migrationsFolder = path.resolve(import.meta.dirname, '../../../../drizzle');

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory for the embedded database; omit for an in-memory PGlite (tests). */
  pgliteDir?: string | undefined;
  /**
   * What an in-memory PGlite starts with: a dump of a data directory (PGlite's `dumpDataDir`)
   * instead of a new, empty cluster. The API tests start each database from one migrated and
   * seeded once per run (tests/api/global-setup.ts): a new cluster costs 2-3 s, a dump 0.7 s.
   */
  volcado?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // Decision 0088: node-postgres closes an idle connection after 10 s by default, and the next
      // request after a quiet spell paid for a new PostgreSQL backend (its start, its catalogue,
      // its statements prepared again, every page it reads mapped anew). Connections now stay
      // open through 5 quiet minutes, and the last two stay open for good.
      idleTimeoutMillis: 5 * 60_000,
      min: 2,
      // TCP keepalives on an idle connection: a firewall or NAT between the servers keeps its
      // mapping, and a peer that vanished without a word is found instead of written to.
      keepAlive: true,
      keepAliveInitialDelayMillis: 60_000,
      // An idle connection does not keep a process alive: the CLI commands still end on their own.
      allowExitOnIdle: true,
    });
    pool.on('error', () => {
      /* idle client errors surface on the next query; the pool replaces the client */
    });
    const cambios = createCambios(true);
    informarPool(pool, cambios);
    const db = drizzleNodePg(pool, { schema });
    registrarCambios(db, cambios);
    return {
      db,
      kind: 'postgres',
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      async exclusivo(fn) {
        // A session-level advisory lock on a client of its own, released even if fn throws (and by
        // PostgreSQL itself if this process dies holding it).
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [CLAVE_ARRANQUE]);
          try {
            return await fn();
          } finally {
            await client.query('select pg_advisory_unlock($1)', [CLAVE_ARRANQUE]);
          }
        } finally {
          client.release();
        }
      },
      ping: async () =>
        pool.query('select 1').then(
          () => true,
          () => false,
        ),
      close: () => pool.end(),
    };
  }
  if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
  // V8 compiles PGlite's WebAssembly quickly (Liftoff), then compiles the functions that get busy
  // again, optimized, and keeps both: under load that added 120-300 MB of native code that never
  // went away (issue 15: RSS 382 MB idle, 820 MB under load, and it stayed). Read before the
  // module is compiled. With the read caches a request runs few queries, and the quick code serves
  // them: the throughput figures of `npm run bench` did not change.
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
  const client = await PGlite.create({
    ...(options.pgliteDir ? { dataDir: options.pgliteDir } : {}),
    ...(options.volcado && !options.pgliteDir ? { loadDataDir: options.volcado } : {}),
    // pg_trgm: the directory's name search (drizzle/0019).
    extensions: { unaccent, pg_trgm },
    // PostgreSQL's default 128 MB of shared buffers lives in the WebAssembly heap, which never
    // shrinks; a school network's data fits in far less (measured: ~190 MB less RSS on open).
    postgresqlconf: ['shared_buffers=32MB'],
  });
  const cambios = createCambios(false);
  const sentencias = crearSentencias(client);
  informarPglite(client, cambios, sentencias);
  const db = drizzlePglite(client, { schema });
  nombrarPreparadas(db, sentencias);
  registrarCambios(db, cambios);
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    // One process owns the embedded database (the data directory's lock).
    exclusivo: (fn) => fn(),
    ping: async () =>
      client.query('select 1').then(
        () => true,
        () => false,
      ),
    close: () => client.close(),
  };
}

/** The rows a statement changed, as node-postgres (`rowCount`) or PGlite (`affectedRows`) tell it; undefined when neither does. */
const cambiadas = (result: unknown): number | undefined => {
  const r = result as { rowCount?: unknown; affectedRows?: unknown } | null;
  const n = r?.rowCount ?? r?.affectedRows;
  return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
};

/** The SQL text of a query call (`query(text, …)` or `query({ text, … })`). */
const textoDe = (query: unknown): string => (typeof query === 'string' ? query : String((query as { text?: unknown } | null)?.text ?? ''));

/**
 * Reports every statement the pool runs to `cambios`: single queries, and the transactions Drizzle
 * runs on a client it checks out (one tracker per client, which sees its begin and commit).
 */
function informarPool(pool: pg.Pool, cambios: Cambios): void {
  const suelta = cambios.conexion();
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as { query: unknown }).query = async (...args: unknown[]) => {
    const result = await query(...args);
    suelta(textoDe(args[0]), cambiadas(result));
    return result;
  };
  const informados = new WeakSet<pg.PoolClient>();
  pool.on('connect', (client) => {
    if (informados.has(client)) return;
    informados.add(client);
    const registrar = cambios.conexion();
    const clientQuery = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as { query: unknown }).query = async (...args: unknown[]) => {
      const result = await clientQuery(...args);
      registrar(textoDe(args[0]), cambiadas(result));
      return result;
    };
  });
}

/**
 * The texts of the statements Drizzle prepares under a name (`.prepare('nombre')`) run as named
 * statements on PGlite too (pglite-preparadas.server.ts): its driver does not pass the name on.
 */
function nombrarPreparadas(db: Db, sentencias: Sentencias): void {
  const session = (
    db as unknown as { session: { prepareQuery: (query: { sql: string }, fields: unknown, name: unknown, ...rest: unknown[]) => unknown } }
  ).session;
  const prepareQuery = session.prepareQuery.bind(session);
  session.prepareQuery = (query, fields, name, ...rest) => {
    if (name) sentencias.nombrar(query.sql);
    return prepareQuery(query, fields, name, ...rest);
  };
}

/**
 * The same for PGlite: its queries, and each transaction's statements counted at its end. The
 * wrappers that report them are also where each statement is sent through `sentencias` (decision
 * 0089), the one place that sees both kinds of call.
 */
function informarPglite(client: PGlite, cambios: Cambios, sentencias: Sentencias): void {
  const suelta = cambios.conexion();
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  /** A statement in one call into the database (`enTransaccion`: on the transaction's own turn), or through PGlite's `ordinaria` path. */
  const correr = (ordinaria: (...args: unknown[]) => Promise<unknown>, enTransaccion: boolean, sql: string, rest: unknown[]) => {
    const options = rest[1] as QueryOptions | undefined;
    return sentencias.sirve(options)
      ? sentencias.ejecutar(sql, (rest[0] as unknown[] | undefined) ?? [], options, enTransaccion)
      : ordinaria(sql, ...rest);
  };
  client.query = (async (sql: string, ...rest: unknown[]) => {
    const result = await correr(query, false, sql, rest);
    suelta(sql, cambiadas(result));
    return result;
  }) as typeof client.query;
  const transaction = client.transaction.bind(client);
  client.transaction = (async (callback: (tx: Transaction) => Promise<unknown>) => {
    const registrar = cambios.conexion();
    registrar('begin');
    try {
      const result = await transaction((tx) => {
        const txQuery = tx.query.bind(tx) as (...args: unknown[]) => Promise<unknown>;
        tx.query = (async (sql: string, ...rest: unknown[]) => {
          const r = await correr(txQuery, true, sql, rest);
          registrar(sql, cambiadas(r));
          return r;
        }) as typeof tx.query;
        return callback(tx);
      });
      registrar('commit');
      return result;
    } catch (error) {
      registrar('rollback');
      throw error;
    }
  }) as typeof client.transaction;
}

/**
 * The PostgreSQL pool's connections outlive a quiet spell (decision 0088): node-postgres closes an
 * idle connection after 10 s unless told otherwise, and the request after the pause then paid for a
 * new backend. And an idle connection does not keep a process alive, so a command that forgets to
 * close its database still ends. Against the PostgreSQL every machine of this kind runs
 * (DATABASE_URL's in the suite's PostgreSQL run, 127.0.0.1's `test` otherwise): the embedded
 * database has no connections to keep.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { filasDe, openDatabase } from '../../src/lib/server/db/client.server.ts';

const URL_POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** node-postgres's own idle timeout, which the pool no longer uses. */
const OCIO_POR_DEFECTO_MS = 10_000;
/** How long a child that queried and left its database open may take to end. */
const SALIDA_MS = 5_000;
const CLIENTE = path.resolve(import.meta.dirname, '../../src/lib/server/db/client.server.ts');

const backend = async (database: Awaited<ReturnType<typeof openDatabase>>) =>
  (await filasDe<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]?.pid;

it('keeps a connection open past node-postgres’s 10 s idle timeout', { timeout: 40_000 }, async () => {
  const database = await openDatabase({ databaseUrl: URL_POSTGRES });
  try {
    const antes = await backend(database);
    expect(antes).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, OCIO_POR_DEFECTO_MS + 1_500));
    expect(await backend(database)).toBe(antes);
  } finally {
    await database.close();
  }
});

it('lets a process that leaves its database open end on its own', { timeout: 45_000 }, async () => {
  const programa = `
    const { openDatabase } = await import(${JSON.stringify(CLIENTE)});
    const database = await openDatabase({ databaseUrl: ${JSON.stringify(URL_POSTGRES)} });
    await database.ping();
    console.log('consultada');
  `;
  const hijo = spawn(process.execPath, ['--input-type=module', '-e', programa], { stdio: ['ignore', 'pipe', 'pipe'] });
  let salida = '';
  /** When the child said it had queried: from then it has SALIDA_MS to end. */
  let consultada: number | undefined;
  hijo.stdout.on('data', (d: Buffer) => {
    salida += d.toString();
    if (consultada === undefined && salida.includes('consultada')) consultada = performance.now();
  });
  hijo.stderr.on('data', (d: Buffer) => {
    salida += d.toString();
  });
  const codigo = await new Promise<number | null>((resolve) => {
    const limite = setTimeout(() => {
      hijo.kill('SIGKILL');
      resolve(null);
    }, 30_000);
    hijo.on('exit', (c) => {
      clearTimeout(limite);
      resolve(c);
    });
  });
  const fin = performance.now();
  expect(salida).toContain('consultada');
  expect(codigo).toBe(0);
  // Well before node-postgres's idle timeout, which is what used to end such a process.
  expect(fin - (consultada ?? fin)).toBeLessThan(SALIDA_MS);
});

/**
 * One migrated and seeded database per run of the API project, which every test file's databases
 * start from (tests/support/api.ts, `baseDePrueba`): on PGlite a dump of its data directory, on
 * PostgreSQL a template database. The same migrations and seed run here as on a fresh
 * installation, once, instead of once per file: a new PGlite cluster costs 2-3 s and its
 * migrations 0.6 s, a dump loads in 0.7 s; on PostgreSQL a copy of the template takes 0.1 s
 * against 0.7 s.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/lib/server/db/client.server.ts';
import { seedCatalogos } from '../../src/lib/server/db/seed.server.ts';
import { enServidor } from '../support/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated, seeded database to start from: a PGlite dump's file, or a PostgreSQL template's name. */
    plantilla: { pglite: string } | { postgres: string };
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const nombre = `ed_plantilla_${randomBytes(6).toString('hex')}`;
    await enServidor(url, `create database ${nombre}`);
    const destino = new URL(url);
    destino.pathname = `/${nombre}`;
    // Closed before any copy: PostgreSQL copies a template only while nobody is connected to it.
    const database = await openDatabase({ databaseUrl: destino.toString() });
    try {
      await database.migrate();
      await seedCatalogos(database.db);
    } finally {
      await database.close();
    }
    project.provide('plantilla', { postgres: nombre });
    return () => enServidor(url, `drop database if exists ${nombre} with (force)`);
  }
  const database = await openDatabase({});
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-plantilla-'));
  try {
    await database.migrate();
    await seedCatalogos(database.db);
    // Drizzle's PGlite driver keeps its client as `$client`.
    const volcado = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
    writeFileSync(path.join(dir, 'plantilla.tar'), Buffer.from(await volcado.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('plantilla', { pglite: path.join(dir, 'plantilla.tar') });
  return () => rmSync(dir, { recursive: true, force: true });
}

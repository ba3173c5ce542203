/**
 * A worker killed mid-transcode: its ffmpeg dies with it, a second worker takes the
 * job over once the lease passes, removes the dead attempt's output and makes the capsule 'listo'.
 * Real processes on PostgreSQL (`npm run worker`'s entry), one fresh database per run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANCHOS_MINIATURA } from '../../src/lib/format/miniaturas.ts';
import { paths } from '../../src/lib/server/data-dir.server.ts';
import { type Database, openDatabase } from '../../src/lib/server/db/client.server.ts';
import { areas, capsulas, metodologias, niveles, trabajos, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { seedAdmin, seedCatalogos } from '../../src/lib/server/db/seed.server.ts';
import { conEntornoDelServidor } from '../../src/lib/server/entorno-proceso.server.ts';
import { claveVariante } from '../../src/lib/server/media/miniaturas.server.ts';
import { enServidor } from '../support/postgres.ts';
import { corriendo, esperar, hijos } from '../support/procesos.ts';
import { root } from '../support/server.ts';
import { videoFile } from '../support/video.ts';

const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `ed_test_${randomBytes(6).toString('hex')}`;
const databaseUrl = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-worker-'));
const workers: ChildProcess[] = [];
let database: Database;

const admin = (sql: string) => enServidor(server, sql);

function startWorker(): ChildProcess {
  const child = spawn(process.execPath, ['src/lib/server/worker.server.ts'], {
    cwd: root,
    env: conEntornoDelServidor({
      ...process.env,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'secreto-de-prueba-del-worker-0123456789',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JOBS_IN_SERVER: 'false',
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  workers.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));

beforeAll(async () => {
  await admin(`create database ${name}`);
  database = await openDatabase({ databaseUrl });
  await database.migrate();
  await seedCatalogos(database.db);
  await seedAdmin(database.db, { email: 'admin@example.cl', password: 'Admin12345' });
});

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await Promise.all(workers.map(exited));
  await database?.close();
  await admin(`drop database if exists ${name} with (force)`);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A capsule whose original is in the shared files folder, with its transcode queued. */
async function capsulaEnCola(): Promise<{ id: number; carpeta: string }> {
  const { db } = database;
  const [[user], [area], [metodologia], [nivel]] = await Promise.all([
    db.select({ id: usuarios.id }).from(usuarios).limit(1),
    db.select({ id: areas.id }).from(areas).limit(1),
    db.select({ id: metodologias.id }).from(metodologias).limit(1),
    db.select({ codigo: niveles.codigo }).from(niveles).limit(1),
  ]);
  if (!user || !area || !metodologia || !nivel) throw new Error('catalogues not seeded');
  const [row] = await db
    .insert(capsulas)
    .values({
      titulo: 'Fracciones con material concreto',
      descripcion: 'Clase grabada',
      extension: 'mp4',
      archivo: 'pendiente',
      id_area: area.id,
      id_metodologia: metodologia.id,
      codigo_nivel: nivel.codigo,
      id_usuario: user.id,
    })
    .returning({ id: capsulas.id });
  if (!row) throw new Error('capsule not inserted');
  const carpeta = path.join(paths(dataDir).files, 'capsulas', String(row.id));
  mkdirSync(carpeta, { recursive: true });
  // Long enough that ffmpeg is still at work when the test kills its worker; small enough to be quick.
  await videoFile(path.join(carpeta, 'original.mp4'), { width: 320, height: 240, seconds: 40 });
  await db
    .update(capsulas)
    .set({ archivo: `capsulas/${row.id}/original.mp4` })
    .where(eq(capsulas.id, row.id));
  await db.insert(trabajos).values({ tipo: 'capsula-hls', datos: { id: row.id }, max_intentos: 3 });
  return { id: row.id, carpeta };
}

/** The capsule's transcode work folders (issue 19): under the storage's temporary folder, not beside its files. */
const temporal = path.join(paths(dataDir).files, '.tmp');
const intentos = (id: number) => (existsSync(temporal) ? readdirSync(temporal).filter((n) => n.startsWith(`capsula-${id}-`)) : []);
const segmentos = (trabajo: string) => {
  const hls = path.join(temporal, trabajo, 'rendicion', 'hls');
  return existsSync(hls) && readdirSync(hls).some((f) => f.endsWith('.ts'));
};

it('a worker killed mid-transcode leaves no ffmpeg and the next worker makes the capsule listo', { timeout: 120_000 }, async () => {
  const { id, carpeta } = await capsulaEnCola();
  const first = startWorker();
  const firstPid = first.pid ?? 0;

  let ffmpeg = 0;
  await esperar(
    () => {
      ffmpeg = hijos(firstPid, 'ffmpeg')[0] ?? 0;
      return ffmpeg > 0;
    },
    30_000,
    'the first worker to start ffmpeg',
  );
  // Kill it once the attempt has written part of the ladder, which the next attempt must remove.
  await esperar(() => intentos(id).some(segmentos), 20_000, 'a segment');
  first.kill('SIGKILL');
  await exited(first);
  await esperar(() => !corriendo(ffmpeg), 3000, `ffmpeg ${ffmpeg} to die with its worker`);
  const dead = intentos(id);
  expect(dead).toHaveLength(1);

  const started = Date.now();
  startWorker();
  await esperar(
    async () => {
      const [row] = await database.db.select({ estado: capsulas.estado }).from(capsulas).where(eq(capsulas.id, id));
      return row?.estado === 'listo';
    },
    60_000,
    'the capsule to become listo',
  );
  const seconds = (Date.now() - started) / 1000;
  expect(seconds).toBeLessThan(60);
  // The dead attempt's work folder was removed by the next one, which removed its own too; only the rendition was adopted.
  const variantes = ANCHOS_MINIATURA.map((ancho) => claveVariante('poster.jpg', ancho));
  expect(readdirSync(carpeta).sort()).toEqual(['hls', 'liviana.mp4', 'original.mp4', ...variantes, 'poster.jpg'].sort());
  // The attempt removes its own folder just after it marks the capsule listo.
  await esperar(() => intentos(id).length === 0, 5000, 'the attempt to remove its work folder');
  expect(readdirSync(path.join(carpeta, 'hls'))).toContain('manifest.m3u8');
  // The runner marks the job done once its handler returns, just after the capsule is listo.
  const trabajo = async () => (await database.db.select().from(trabajos).where(eq(trabajos.tipo, 'capsula-hls')))[0];
  await esperar(async () => (await trabajo())?.estado === 'hecho', 5000, 'the job to be marked done');
  expect(await trabajo()).toMatchObject({ estado: 'hecho', intentos: 2 });
});

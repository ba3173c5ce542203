/**
 * `npm run bench -- copia-datos` (issue 31): the copy of a person's data must stream. In this
 * process (its own PGlite and disk storage, the real services and job), a teacher with
 * BENCH_COPIA_MB (default 300) MB of generated manual files written to storage asks for a copy;
 * the 'copia-datos' job builds the ZIP into storage while this process's RSS is sampled every
 * 20 ms. The rise over the baseline is printed: it stays near the size of a few stream buffers,
 * not of the files.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { openDatabase } from '../../src/lib/server/db/client.server.ts';
import { areas, manuales, perfilesDocentes, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { seedCatalogos } from '../../src/lib/server/db/seed.server.ts';
import { createJobRunner } from '../../src/lib/server/jobs/runner.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { crearVerificador, resolverHerramientas } from '../../src/lib/server/media/herramientas.server.ts';
import { createServices, registrarTrabajos } from '../../src/lib/server/services/services.server.ts';
import { createDiskStorage } from '../../src/lib/server/storage/storage.server.ts';
import { formatTable } from './table.ts';

const ARCHIVO_MB = 50;
const MB = 1024 * 1024;

export const megasCopia = () => Number(process.env.BENCH_COPIA_MB ?? 300);

/** `mb` MB of incompressible bytes, one random MiB repeated, as a stream. */
function generado(mb: number): Readable {
  const bloque = randomBytes(MB);
  let quedan = mb;
  return new Readable({
    read() {
      this.push(quedan-- > 0 ? bloque : null);
    },
  });
}

export interface CifrasCopia {
  archivos: number;
  mbArchivos: number;
  mbZip: number;
  segundos: number;
  baseline: number;
  peak: number;
  rise: number;
}

/**
 * An installation in this process for a memory bench: its own PGlite and disk storage under `dir`,
 * the real services and job runner, and a teacher with `mbTotal` MB of generated manual files
 * (50 MB each) in storage.
 */
async function entornoBench(dir: string, mbTotal: number) {
  const log = createLogger('silent');
  const database = await openDatabase({});
  await database.migrate();
  await seedCatalogos(database.db);
  const storage = createDiskStorage(path.join(dir, 'files'));
  const jobs = createJobRunner({ db: database.db, log });
  const services = createServices({
    db: database.db,
    log,
    config: {
      PUBLIC_URL: 'http://localhost:4321',
      HELP_EMAIL: 'ayuda@example.cl',
      MAX_VIDEO_MB: 1,
      MAX_MANUAL_MB: 1,
      MAX_MATERIAL_MB: 1,
      MAX_IMAGEN_MB: 1,
      MOCHILA_DIRECTA_MB: 50,
    },
    storage,
    herramientas: crearVerificador(resolverHerramientas()),
    jobs,
    jwtSecret: 'bench-secret-that-is-long-enough-0123456789',
    now: () => new Date(),
  });
  registrarTrabajos(services, jobs);
  const [persona] = await database.db
    .insert(usuarios)
    .values({ email: 'copia@example.cl', activo: true, primer_nombre: 'Ana', apellido_paterno: 'Pérez' })
    .returning();
  if (!persona) throw new Error('no person');
  await database.db.insert(perfilesDocentes).values({ id_usuario: persona.id });
  const [area] = await database.db.select().from(areas).limit(1);
  const archivos = Math.ceil(mbTotal / ARCHIVO_MB);
  const idsManuales: number[] = [];
  for (let i = 0; i < archivos; i++) {
    const mb = Math.min(ARCHIVO_MB, mbTotal - i * ARCHIVO_MB);
    const clave = `manuales/bench-${i}/original.pdf`;
    await storage.write(clave, generado(mb));
    const [manual] = await database.db
      .insert(manuales)
      .values({
        titulo: `Manual ${i + 1}`,
        autor: 'Ana Pérez',
        descripcion: 'Generado',
        extension: 'pdf',
        archivo: clave,
        tamano: mb * MB,
        id_area: area?.id ?? 0,
        id_usuario: persona.id,
      })
      .returning({ id: manuales.id });
    if (manual) idsManuales.push(manual.id);
  }
  return { database, services, jobs, persona, archivos, idsManuales };
}

/** This process's resident memory in MB, sampled every 20 ms while `trabajo` runs: baseline and peak. */
export async function medirRss(trabajo: () => Promise<void>): Promise<{ baseline: number; peak: number; rise: number; segundos: number }> {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 300));
  const rss = () => process.memoryUsage.rss() / MB;
  const baseline = rss();
  let peak = baseline;
  const muestreo = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 20);
  const inicio = performance.now();
  try {
    await trabajo();
  } finally {
    clearInterval(muestreo);
  }
  return { baseline, peak, rise: peak - baseline, segundos: (performance.now() - inicio) / 1000 };
}

/**
 * `trabajo` over a fresh installation (entornoBench) in a temporary folder, closed and removed
 * after, whatever happens. Shared by the data copy's and the mochila's benches.
 */
export async function conEntornoBench<T>(
  prefijo: string,
  mbTotal: number,
  trabajo: (entorno: Awaited<ReturnType<typeof entornoBench>>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefijo));
  try {
    const entorno = await entornoBench(dir, mbTotal);
    try {
      return await trabajo(entorno);
    } finally {
      await entorno.database.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function benchCopia(mbTotal = megasCopia()): Promise<CifrasCopia> {
  return conEntornoBench('ed-bench-copia-', mbTotal, async ({ services, jobs, persona, archivos }) => {
    const actor = { id: persona.id, groups: [] };
    await services.misDatos.solicitar(actor, persona.id);
    const { baseline, peak, rise, segundos } = await medirRss(async () => {
      await jobs.drain();
    });
    const [copia] = await services.misDatos.listar(actor, persona.id);
    if (copia?.estado !== 'lista') throw new Error(`the copy ended ${copia?.estado}`);
    return { archivos, mbArchivos: mbTotal, mbZip: (copia.bytes ?? 0) / MB, segundos, baseline, peak, rise };
  });
}

export function describirCopia(c: CifrasCopia): string {
  return formatTable(
    ['copy of a person’s data (in process)', 'value'],
    [
      ['stored files', `${c.archivos} manuals, ${c.mbArchivos} MB`],
      ['ZIP written to storage', `${c.mbZip.toFixed(1)} MB in ${c.segundos.toFixed(1)} s`],
      ['RSS rise while building', `${c.rise.toFixed(1)} MB (baseline ${c.baseline.toFixed(0)} MB, peak ${c.peak.toFixed(0)} MB)`],
    ],
    ['left', 'left'],
  );
}

/**
 * Backups (issue 28, docs/decisions/0048): one archive with the database's snapshot and every
 * stored file, made while the platform serves; listed, started and downloaded from /admin/respaldos
 * (audited), made every day by a job, the newest RESPALDOS_CONSERVAR kept.
 *
 * Files follow the snapshot: while a backup runs (a row in `bloqueos`, seen by every server on
 * PostgreSQL), a file a service deletes is deleted later by a job instead, so every file a row of
 * the snapshot names is still there when the archive copies it.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { Config } from '../config.server.ts';
import { filasDe } from '../db/client.server.ts';
import { bloqueos } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import type { JobHandler } from '../jobs/runner.server.ts';
import { type Escritor, escribirArchivo, FORMATO, PREFIJO_ARCHIVOS, PREFIJO_TABLAS } from '../respaldos/archivo.server.ts';
import { enInstantanea, migraciones, tablas, volcarTabla } from '../respaldos/volcado.server.ts';
import { sinEspacio } from '../storage/fallas.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import type { ServiceContext } from './context.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

export type Respaldo = Esquema<'Respaldo'>;

export const TRABAJO_RESPALDO = 'respaldo-diario';
export const TRABAJO_BORRADO_DIFERIDO = 'respaldo-borrado-diferido';
/** The row of `bloqueos` that says a backup is running. */
const MARCA = 'respaldo:en-curso';
/** The marker's lease, renewed while the backup runs: a dead backup frees it after this long. */
const LEASE_SEGUNDOS = 120;
const RENOVAR_MS = 30_000;
/** A deletion put off by a running backup is tried again after this long. */
const REINTENTO_BORRADO_SEGUNDOS = 60;
/** The daily backup runs at this hour, Chile's time (a quiet hour). */
const HORA_DIARIA = 3;

const NOMBRE = /^respaldo-\d{4}-\d{2}-\d{2}-\d{6}-\d{3}\.tar$/;

export const EN_CURSO = 'Ya hay un respaldo en curso. Espera a que termine e inténtalo de nuevo.';
export const SIN_ESPACIO =
  'No hay espacio suficiente en el disco de los respaldos: no se guardó el respaldo. El sitio sigue funcionando; libera espacio o cambia RESPALDOS_DIR.';
const NO_ENCONTRADO = 'No se encontró el respaldo';

export interface OpcionesRespaldos {
  /** RESPALDOS_DIR: where archives are written. */
  dir: string;
  /** RESPALDOS_CONSERVAR: how many of the newest archives are kept. */
  conservar: number;
}

/** RESPALDOS_DIR, or DATA_DIR/respaldos. */
export const dirRespaldos = (config: Pick<Config, 'RESPALDOS_DIR' | 'dataDir'>) =>
  config.RESPALDOS_DIR ? path.resolve(config.RESPALDOS_DIR) : path.join(config.dataDir, 'respaldos');

/** 'respaldo-2026-11-28-031500-042.tar' (UTC). */
export function nombreRespaldo(fecha: Date): string {
  const iso = fecha.toISOString();
  return `respaldo-${iso.slice(0, 10)}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}.tar`;
}

/** Seconds from `ahora` to the next `hora`:00 in Chile. */
export function segundosHasta(hora: number, ahora: Date): number {
  const partes = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Santiago',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
      .formatToParts(ahora)
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const transcurridos = (partes.hour ?? 0) * 3600 + (partes.minute ?? 0) * 60 + (partes.second ?? 0);
  const objetivo = hora * 3600;
  return objetivo > transcurridos ? objetivo - transcurridos : 86_400 - transcurridos + objetivo;
}

/** Writes a stream of lines to a file in chunks of about 1 MB (errors such as ENOSPC reject). */
async function archivoDeLineas(ruta: string) {
  const handle = await open(ruta, 'wx', 0o600);
  let pendiente: string[] = [];
  let largo = 0;
  const vaciar = async () => {
    if (pendiente.length === 0) return;
    await handle.write(pendiente.join(''));
    pendiente = [];
    largo = 0;
  };
  return {
    async escribir(linea: string) {
      pendiente.push(`${linea}\n`);
      largo += linea.length + 1;
      if (largo >= 1 << 20) await vaciar();
    },
    async cerrar() {
      try {
        await vaciar();
      } finally {
        await handle.close();
      }
    },
  };
}

export function createRespaldosService(ctx: ServiceContext, opciones: OpcionesRespaldos) {
  const { db, log, jobs } = ctx;
  const storage = ctx.storage;

  async function enCurso(): Promise<boolean> {
    const [fila] = await db
      .select({ clave: bloqueos.clave })
      .from(bloqueos)
      .where(and(eq(bloqueos.clave, MARCA), sql`${bloqueos.hasta} > now()`));
    return fila !== undefined;
  }

  /** Takes the marker (committed before the snapshot is read); false when another backup holds it. */
  async function tomarMarca(dueno: string): Promise<boolean> {
    const hasta = sql`now() + make_interval(secs => ${LEASE_SEGUNDOS})`;
    const filas = await db
      .insert(bloqueos)
      .values({ clave: MARCA, dueno, hasta })
      .onConflictDoUpdate({ target: bloqueos.clave, set: { dueno, hasta, liberar: false }, where: lt(bloqueos.hasta, sql`now()`) })
      .returning({ clave: bloqueos.clave });
    return filas.length > 0;
  }

  const renovarMarca = (dueno: string) =>
    db
      .update(bloqueos)
      .set({ hasta: sql`now() + make_interval(secs => ${LEASE_SEGUNDOS})` })
      .where(and(eq(bloqueos.clave, MARCA), eq(bloqueos.dueno, dueno)));

  const soltarMarca = (dueno: string) => db.delete(bloqueos).where(and(eq(bloqueos.clave, MARCA), eq(bloqueos.dueno, dueno)));

  /**
   * The storage the other services use: a deletion waits while a backup runs. Everything else is
   * the storage itself, through the prototype (not a copy), so it stays one object.
   */
  const almacenamiento: Storage = Object.create(storage, {
    remove: {
      value: async (keyOrPrefix: string) => {
        if (await enCurso()) {
          await jobs.enqueue(TRABAJO_BORRADO_DIFERIDO, { clave: keyOrPrefix }, { enSegundos: REINTENTO_BORRADO_SEGUNDOS, maxIntentos: 5 });
          return;
        }
        await storage.remove(keyOrPrefix);
      },
    },
  });

  const borradoDiferido: JobHandler = async (datos) => {
    const clave = String((datos as { clave?: unknown } | null)?.clave ?? '');
    if (clave === '') return;
    await almacenamiento.remove(clave);
  };

  /** The database's snapshot, one JSON-lines file per table in `dir`: rows per table. */
  async function volcar(dir: string): Promise<{ base_de_datos: string; filas: Record<string, number>; migraciones: string[] }> {
    return enInstantanea(db, async (tx) => {
      const filas: Record<string, number> = {};
      for (const tabla of await tablas(tx)) {
        const salida = await archivoDeLineas(path.join(dir, `${tabla.nombre}.jsonl`));
        try {
          filas[tabla.nombre] = await volcarTabla(tx, tabla, salida.escribir);
        } finally {
          await salida.cerrar();
        }
      }
      const [version] = await filasDe<{ v: string }>(tx, sql`select version() as v`);
      return { base_de_datos: version?.v ?? '', filas, migraciones: await migraciones(tx) };
    });
  }

  /** Every stored file now, each read from one opened version of it (a file replaced meanwhile is read whole). */
  async function copiarArchivos(escritor: Escritor): Promise<number> {
    let n = 0;
    for await (const { key } of storage.list('')) {
      const copiado = await storage
        .local(key, async (ruta) => {
          const handle = await open(ruta, 'r');
          try {
            const { size } = await handle.stat();
            await escritor.agregar(`${PREFIJO_ARCHIVOS}${key}`, size, handle.createReadStream({ autoClose: false }));
            return true;
          } finally {
            await handle.close();
          }
        })
        .catch(async (error: unknown) => {
          // Deleted between the listing and its copy: deleted before the snapshot, so no row names it.
          if ((await storage.size(key).catch(() => 0)) === null) return false;
          throw error;
        });
      if (copiado) n++;
    }
    return n;
  }

  async function listar(): Promise<Respaldo[]> {
    const nombres = (await readdir(opciones.dir).catch(() => [] as string[])).filter((n) => NOMBRE.test(n));
    const respaldos = await Promise.all(
      nombres.map(async (nombre) => {
        const s = await stat(path.join(opciones.dir, nombre)).catch(() => null);
        return s ? { nombre, bytes: s.size, fecha: s.mtime.toISOString() } : null;
      }),
    );
    return respaldos.filter((r): r is Respaldo => r !== null).sort((a, b) => b.nombre.localeCompare(a.nombre));
  }

  /** Keeps the newest `conservar` archives. */
  async function podar(): Promise<void> {
    for (const viejo of (await listar()).slice(opciones.conservar)) {
      await rm(path.join(opciones.dir, viejo.nombre), { force: true });
      log.info('backup removed by retention', { nombre: viejo.nombre });
    }
  }

  async function crear(actor: ActorAdmin | null): Promise<Respaldo> {
    const dueno = randomUUID();
    if (!(await tomarMarca(dueno))) throw new ErrorDeDominio(409, EN_CURSO);
    const renovacion = setInterval(() => void renovarMarca(dueno).catch(() => undefined), RENOVAR_MS);
    const fecha = new Date();
    const nombre = nombreRespaldo(fecha);
    const trabajo = path.join(opciones.dir, `.${nombre}.tablas`);
    const started = performance.now();
    try {
      await mkdir(trabajo, { recursive: true, mode: 0o700 });
      const volcado = await volcar(trabajo);
      let archivos = 0;
      const bytes = await escribirArchivo(
        path.join(opciones.dir, nombre),
        { formato: FORMATO, fecha: fecha.toISOString(), ...volcado },
        async (escritor) => {
          for (const tabla of Object.keys(volcado.filas)) {
            const ruta = path.join(trabajo, `${tabla}.jsonl`);
            await escritor.agregar(`${PREFIJO_TABLAS}${tabla}.jsonl`, (await stat(ruta)).size, createReadStream(ruta));
          }
          archivos = await copiarArchivos(escritor);
        },
      );
      log.info('backup made', { nombre, bytes, archivos, ms: Math.round(performance.now() - started) });
      const respaldo = { nombre, bytes, fecha: (await stat(path.join(opciones.dir, nombre))).mtime.toISOString() };
      if (actor) {
        await registrarAccion(db, actor, {
          accion: 'crear_respaldo',
          tipo: 'respaldo',
          id_registro: null,
          detalle: `Creó el respaldo ${nombre} (${archivos} archivos)`,
        });
      }
      await podar();
      return respaldo;
    } catch (error) {
      log.error('backup failed', { nombre, error });
      if (sinEspacio(error)) throw new ErrorDeDominio(507, SIN_ESPACIO);
      throw error;
    } finally {
      clearInterval(renovacion);
      await rm(trabajo, { recursive: true, force: true });
      await soltarMarca(dueno).catch((error: unknown) => log.warn('backup marker not released', { error }));
    }
  }

  // Every day at HORA_DIARIA, Chile time, the first one included.
  const respaldoDiario = trabajoPeriodico(
    ctx,
    TRABAJO_RESPALDO,
    () => segundosHasta(HORA_DIARIA, ctx.now()),
    () => crear(null),
    {
      aSuHora: true,
    },
  );

  return {
    /** A deletion put off by a backup, and the daily backup (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_BORRADO_DIFERIDO]: borradoDiferido, [TRABAJO_RESPALDO]: respaldoDiario.trabajo },
    /** The storage to give every other service (deletions wait for a running backup). */
    almacenamiento,
    enCurso,
    listar: async () => ({ respaldos: await listar(), conservar: opciones.conservar }),
    crear,
    /** The archive to download, recorded in the audit log. */
    async abrir(actor: ActorAdmin, nombre: string): Promise<{ ruta: string; bytes: number }> {
      if (!NOMBRE.test(nombre)) throw new ErrorDeDominio(404, NO_ENCONTRADO);
      const ruta = path.join(opciones.dir, nombre);
      const s = await stat(ruta).catch(() => null);
      if (!s?.isFile()) throw new ErrorDeDominio(404, NO_ENCONTRADO);
      await registrarAccion(db, actor, {
        accion: 'descargar_respaldo',
        tipo: 'respaldo',
        id_registro: null,
        detalle: `Descargó el respaldo ${nombre}`,
      });
      return { ruta, bytes: s.size };
    },
    /** Queues the daily backup, unless one is queued or running. */
    programar: respaldoDiario.programar,
  };
}

export type RespaldosService = ReturnType<typeof createRespaldosService>;

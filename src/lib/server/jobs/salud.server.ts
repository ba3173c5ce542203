/**
 * Health, in two answers (issue 28, docs/decisions/0050):
 *
 * - `listo()`, GET /healthz: this process can serve, because it runs and its database answers.
 *   What a load balancer or a rolling restart asks: a web server is never taken out of service
 *   for what it cannot fix (a worker not yet started, a mail server down, a missing tool).
 * - `detalle()`, GET /healthz/detalle: everything, for alerting and the admin console. Degraded
 *   (503) when no job runner heart-beat within `latidoMaxSegundos` (this process's own runner, or
 *   with JOBS_IN_SERVER=false the freshest worker's), a mail has waited more than
 *   `correoMaxSegundos`, a media tool does not run, the storage does not answer or the data
 *   directory's disk has less than `discoMinimoBytes` free.
 */
import { statfs } from 'node:fs/promises';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { components } from '../../api/schema.d.ts';
import type { Db } from '../db/client.server.ts';
import { correos, ejecutores, trabajos } from '../db/schema.server.ts';
import type { Verificador } from '../media/herramientas.server.ts';
import type { Storage } from '../storage/storage.server.ts';

/** The answers of GET /healthz and GET /healthz/detalle, as the contract defines them. */
export type Salud = components['schemas']['Salud'];
export type SaludDetalle = components['schemas']['SaludDetalle'];

export interface Health {
  listo(): Promise<Salud>;
  detalle(): Promise<SaludDetalle>;
}

export interface HealthOptions {
  db: Db;
  ping: () => Promise<boolean>;
  /** This process's runner id when it runs the jobs; otherwise any runner's heartbeat counts. */
  runnerId?: string | undefined;
  herramientas: Verificador;
  storage: Pick<Storage, 'tipo' | 'size'>;
  /** The data directory, whose disk holds the embedded database, uploads in progress and temporary files. */
  dataDir: string;
  latidoMaxSegundos?: number;
  correoMaxSegundos?: number;
  discoMinimoBytes?: number;
}

const GIB = 1024 ** 3;
/** Less free space than this on the data directory's disk degrades the detail: about one video upload. */
export const DISCO_MINIMO_BYTES = GIB;
const NO_RESPONDE = 'La base de datos no responde.';

const segundos = (column: PgColumn, agregado: 'max' | 'min') =>
  sql<string | number | null>`extract(epoch from now() - ${agregado === 'max' ? sql`max(${column})` : sql`min(${column})`})::float8`;

async function edad(db: Db, table: typeof ejecutores | typeof correos | typeof trabajos, value: SQL, where?: SQL) {
  const [row] = await db
    .select({ s: value })
    .from(table)
    .where(where ?? sql`true`);
  return row?.s == null ? null : Math.round(Number(row.s));
}

const mensaje = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** The storage answers a read (a missing key is an answer; a refused or unreachable bucket is not). */
async function almacenamiento(storage: HealthOptions['storage']): Promise<SaludDetalle['almacenamiento']> {
  try {
    await storage.size('.salud');
    return { tipo: storage.tipo, disponible: true, error: null };
  } catch (error) {
    return { tipo: storage.tipo, disponible: false, error: mensaje(error) };
  }
}

async function disco(dataDir: string): Promise<SaludDetalle['disco']> {
  try {
    const s = await statfs(dataDir);
    return { libre_bytes: s.bavail * s.bsize, total_bytes: s.blocks * s.bsize };
  } catch {
    return { libre_bytes: null, total_bytes: null };
  }
}

export function createHealth(o: HealthOptions): Health {
  const { db, ping, runnerId, latidoMaxSegundos = 60, correoMaxSegundos = 15 * 60, discoMinimoBytes = DISCO_MINIMO_BYTES } = o;

  async function listo(): Promise<Salud> {
    return (await ping()) ? { status: 'ok', db: true, razones: [] } : { status: 'degraded', db: false, razones: [NO_RESPONDE] };
  }

  async function colas() {
    if (!(await ping())) return null;
    try {
      return {
        latido: await edad(db, ejecutores, segundos(ejecutores.latido, 'max'), runnerId ? eq(ejecutores.id, runnerId) : undefined),
        correo: await edad(db, correos, segundos(correos.fecha_creacion, 'min'), eq(correos.estado, 'pendiente')),
        trabajo: await edad(db, trabajos, segundos(trabajos.fecha_creacion, 'min'), eq(trabajos.estado, 'pendiente')),
      };
    } catch {
      return null;
    }
  }

  async function detalle(): Promise<SaludDetalle> {
    const [c, herramientas, almacen, espacio] = await Promise.all([
      colas(),
      o.herramientas.estado(),
      almacenamiento(o.storage),
      disco(o.dataDir),
    ]);
    const razones: string[] = [];
    if (!c) razones.push(NO_RESPONDE);
    const jobs = c?.latido != null && c.latido <= latidoMaxSegundos;
    if (c && !jobs) {
      razones.push(
        c.latido === null
          ? 'Ningún ejecutor de trabajos está funcionando.'
          : `El ejecutor de trabajos no da señales hace ${c.latido} s (máximo ${latidoMaxSegundos} s).`,
      );
    }
    if (c?.correo != null && c.correo > correoMaxSegundos) {
      razones.push(`Un correo espera ser enviado hace ${Math.floor(c.correo / 60)} minutos (máximo ${correoMaxSegundos / 60}).`);
    }
    for (const h of herramientas) {
      if (!h.disponible) razones.push(`La herramienta ${h.nombre} no funciona (${h.ruta}): ${h.error ?? 'sin detalle'}.`);
    }
    if (!almacen.disponible) razones.push(`El almacenamiento de archivos no responde: ${almacen.error ?? 'sin detalle'}.`);
    if (espacio.libre_bytes !== null && espacio.libre_bytes < discoMinimoBytes) {
      razones.push(
        `Queda poco espacio en el disco de los datos: ${(espacio.libre_bytes / GIB).toFixed(2)} GiB libres (mínimo ${(discoMinimoBytes / GIB).toFixed(2)}).`,
      );
    }
    return {
      status: razones.length === 0 ? 'ok' : 'degraded',
      db: c !== null,
      jobs,
      latido_segundos: c?.latido ?? null,
      correo_pendiente_segundos: c?.correo ?? null,
      trabajo_pendiente_segundos: c?.trabajo ?? null,
      herramientas,
      almacenamiento: almacen,
      disco: espacio,
      razones,
    };
  }

  return { listo, detalle };
}

/**
 * What GET /healthz reports: the database answers, a job runner heart-beats (this
 * process's own runner, or with JOBS_IN_SERVER=false the freshest worker's), and how long the
 * oldest unsent mail and the oldest queued job have waited. Degraded (503) when no heartbeat
 * came within `latidoMaxSegundos` or a mail has waited more than `correoMaxSegundos`.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { components } from '../../api/schema.d.ts';
import type { Db } from '../db/client.server.ts';
import { correos, ejecutores, trabajos } from '../db/schema.server.ts';

/** The answer of GET /healthz, as the contract defines it. */
export type Salud = components['schemas']['Salud'];

export interface HealthOptions {
  db: Db;
  ping: () => Promise<boolean>;
  /** This process's runner id when it runs the jobs; otherwise any runner's heartbeat counts. */
  runnerId?: string | undefined;
  latidoMaxSegundos?: number;
  correoMaxSegundos?: number;
}

const segundos = (column: PgColumn, agregado: 'max' | 'min') =>
  sql<string | number | null>`extract(epoch from now() - ${agregado === 'max' ? sql`max(${column})` : sql`min(${column})`})::float8`;

async function edad(db: Db, table: typeof ejecutores | typeof correos | typeof trabajos, value: SQL, where?: SQL) {
  const [row] = await db
    .select({ s: value })
    .from(table)
    .where(where ?? sql`true`);
  return row?.s == null ? null : Math.round(Number(row.s));
}

export function createHealth({ db, ping, runnerId, latidoMaxSegundos = 60, correoMaxSegundos = 15 * 60 }: HealthOptions) {
  return async function health(): Promise<Salud> {
    const vacia: Salud = {
      status: 'degraded',
      db: false,
      jobs: false,
      latido_segundos: null,
      correo_pendiente_segundos: null,
      trabajo_pendiente_segundos: null,
      razones: ['La base de datos no responde.'],
    };
    if (!(await ping())) return vacia;
    try {
      const latido = await edad(db, ejecutores, segundos(ejecutores.latido, 'max'), runnerId ? eq(ejecutores.id, runnerId) : undefined);
      const correo = await edad(db, correos, segundos(correos.fecha_creacion, 'min'), eq(correos.estado, 'pendiente'));
      const trabajo = await edad(db, trabajos, segundos(trabajos.fecha_creacion, 'min'), eq(trabajos.estado, 'pendiente'));
      const razones: string[] = [];
      const jobs = latido !== null && latido <= latidoMaxSegundos;
      if (!jobs) {
        razones.push(
          latido === null
            ? 'Ningún ejecutor de trabajos está funcionando.'
            : `El ejecutor de trabajos no da señales hace ${latido} s (máximo ${latidoMaxSegundos} s).`,
        );
      }
      if (correo !== null && correo > correoMaxSegundos) {
        razones.push(`Un correo espera ser enviado hace ${Math.floor(correo / 60)} minutos (máximo ${correoMaxSegundos / 60}).`);
      }
      return {
        status: razones.length === 0 ? 'ok' : 'degraded',
        db: true,
        jobs,
        latido_segundos: latido,
        correo_pendiente_segundos: correo,
        trabajo_pendiente_segundos: trabajo,
        razones,
      };
    } catch {
      return vacia;
    }
  };
}

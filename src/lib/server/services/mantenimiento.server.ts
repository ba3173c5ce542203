/**
 * The database's upkeep (issue 36, decision 0080): a daily 'mantenimiento-base' job at a quiet
 * hour that runs `VACUUM (ANALYZE)` where no autovacuum does it.
 *
 * - PGlite runs no autovacuum (one backend, no background workers). Without this, the dead rows
 *   that every view counter and comment counter write leaves stay, the planner's statistics stay
 *   those of the day the data was loaded, the visibility map never lets an index-only scan skip
 *   the table, and the GIN search indexes' pending lists grow to their 4 MB limit.
 * - PostgreSQL with its autovacuum launcher running needs nothing: autovacuum and autoanalyze
 *   already follow each table's changes, and a whole-database VACUUM at night would redo their
 *   work. A server run with autovacuum off gets the same nightly run as PGlite.
 *
 * While it runs, PGlite answers nothing else (one thread), hence 04:00 Chile time, after the
 * 03:00 backup and before teachers start the day.
 */
import { sql } from 'drizzle-orm';
import { filasDe } from '../db/client.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import type { ServiceContext } from './context.server.ts';
import { segundosHasta } from './respaldos.server.ts';

export const TRABAJO_MANTENIMIENTO = 'mantenimiento-base';
/** The hour, Chile time, of the daily run. */
export const HORA_MANTENIMIENTO = 4;

/** What a run did: vacuumed and analyzed every table, or left them to autovacuum. */
export type Mantenimiento = 'vacuum' | 'autovacuum';

export function createMantenimientoService(ctx: Pick<ServiceContext, 'db' | 'log' | 'now' | 'jobs'>) {
  const { db, log } = ctx;

  /** Whether an autovacuum launcher runs for this database (never on PGlite). */
  async function hayAutovacuum(): Promise<boolean> {
    const [fila] = await filasDe<{ hay: boolean }>(
      db,
      sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as hay`,
    );
    return Boolean(fila?.hay);
  }

  async function mantener(): Promise<Mantenimiento> {
    if (await hayAutovacuum()) {
      log.info('database upkeep left to autovacuum');
      return 'autovacuum';
    }
    const inicio = performance.now();
    // Outside any transaction, as VACUUM requires: db.execute runs it as a statement of its own.
    await db.execute(sql`vacuum (analyze)`);
    log.info('database vacuumed and analyzed', { ms: Math.round(performance.now() - inicio) });
    return 'vacuum';
  }

  const periodico = trabajoPeriodico(ctx, TRABAJO_MANTENIMIENTO, () => segundosHasta(HORA_MANTENIMIENTO, ctx.now()), mantener, {
    aSuHora: true,
  });

  return {
    /** The daily job (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_MANTENIMIENTO]: periodico.trabajo },
    /** Queues the first run at the next HORA_MANTENIMIENTO unless one is waiting. */
    programar: periodico.programar,
    mantener,
  };
}

/**
 * The database's nightly upkeep (issue 36, decision 0080): the 'mantenimiento-base' job is queued
 * for 04:00 Chile time and, where no autovacuum launcher runs (PGlite always; the suite's
 * PostgreSQL when run with autovacuum off), vacuums and analyzes every table; then it queues the
 * next night's run. On the suite's database (PGlite, or PostgreSQL with DATABASE_URL).
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRABAJOS } from '../../src/lib/palabras-admin.ts';
import { trabajos } from '../../src/lib/server/db/schema.server.ts';
import { HORA_MANTENIMIENTO, TRABAJO_MANTENIMIENTO } from '../../src/lib/server/services/mantenimiento.server.ts';
import { segundosHasta } from '../../src/lib/server/services/respaldos.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarMaterial } from '../support/contenido.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

const filas = async <T>(q: ReturnType<typeof sql>) => ((await t.db.execute(q)) as unknown as { rows: T[] }).rows;

/** What the planner knows of a table: -1 tuples until it is first vacuumed or analyzed. */
const estadisticas = async (tabla: string) =>
  (
    await filas<{ tuplas: number; vacuum: unknown }>(sql`select c.reltuples::float8 as tuplas,
      (select last_vacuum from pg_stat_user_tables s where s.relid = c.oid) as vacuum
      from pg_class c where c.oid = ${`public.${tabla}`}::regclass`)
  )[0];

const pendiente = () =>
  t.db
    .select({ en: sql<number>`extract(epoch from ${trabajos.ejecutar_desde} - now())` })
    .from(trabajos)
    .where(and(eq(trabajos.tipo, TRABAJO_MANTENIMIENTO), eq(trabajos.estado, 'pendiente')));

describe("the nightly 'mantenimiento-base' job", () => {
  it('has its words in the console', () => {
    expect(TRABAJOS[TRABAJO_MANTENIMIENTO]).toMatch(/base de datos/);
  });

  it('is queued for the next 04:00 in Chile, once however often the server starts', async () => {
    await t.api.services.mantenimiento.programar();
    await t.api.services.mantenimiento.programar();
    const colas = await pendiente();
    expect(colas).toHaveLength(1);
    const esperado = segundosHasta(HORA_MANTENIMIENTO, t.clock.now);
    expect(Math.abs(Number(colas[0]?.en) - esperado)).toBeLessThan(120);
    expect(esperado).toBeGreaterThan(0);
    expect(esperado).toBeLessThanOrEqual(24 * 60 * 60);
  });

  it('vacuums and analyzes where no autovacuum runs, then queues the next night', async () => {
    const [{ hay }] = (await filas<{ hay: boolean }>(
      sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as hay`,
    )) as [{ hay: boolean }];
    const autor = await t.session({ nombre: 'Ana' });
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await insertarMaterial(t, autor, `Material ${i}`));
    // A view counter's writes leave dead rows, as every visit does.
    for (let i = 0; i < 3; i++) await t.db.execute(sql`update materiales set n_visitas = n_visitas + 1`);
    const antes = await estadisticas('materiales');

    // The queued run, due now.
    await t.db.execute(sql`update trabajos set ejecutar_desde = now() where tipo = ${TRABAJO_MANTENIMIENTO} and estado = 'pendiente'`);
    expect(await t.jobs.drain()).toBeGreaterThanOrEqual(1);
    const despues = await estadisticas('materiales');
    if (hay) {
      // PostgreSQL with autovacuum: left to it.
      expect(await t.api.services.mantenimiento.mantener()).toBe('autovacuum');
    } else {
      expect(antes).toEqual({ tuplas: -1, vacuum: null });
      expect(despues?.tuplas).toBe(30);
      expect(despues?.vacuum).not.toBeNull();
      expect(await t.api.services.mantenimiento.mantener()).toBe('vacuum');
    }
    const [siguiente] = await pendiente();
    expect(Number(siguiente?.en)).toBeGreaterThan(0);
    expect(Number(siguiente?.en)).toBeLessThanOrEqual(24 * 60 * 60 + 120);
  });
});

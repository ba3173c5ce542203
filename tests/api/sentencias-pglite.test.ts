/**
 * How the embedded database runs statements (decision 0089, db/pglite-preparadas.server.ts): a
 * text Drizzle prepares under a name is a named statement on PGlite too, any other is parsed for
 * its values each time in one call. On an in-memory PGlite whatever the suite's database: this is
 * the embedded driver's own path.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, filasDe, openDatabase } from '../../src/lib/server/db/client.server.ts';
import { crearSentencias } from '../../src/lib/server/db/pglite-preparadas.server.ts';
import { codigoError } from '../../src/lib/server/services/foro/comun.server.ts';

const notas = pgTable('notas_prueba', {
  id: serial('id').primaryKey(),
  titulo: text('titulo').notNull().unique(),
  puntos: integer('puntos'),
  datos: jsonb('datos'),
  visto: boolean('visto').notNull().default(false),
  fecha: timestamp('fecha', { withTimezone: true }).notNull().defaultNow(),
});

/** The named statements the connection holds (ours are `ed_…`). */
const nombradas = async (database: Database) =>
  (await filasDe<{ name: string }>(database.db, sql`select name from pg_prepared_statements where name like 'ed\_%' order by name`)).map(
    (f) => f.name,
  );

describe('statements on the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
    await database.db.execute(
      sql`create table notas_prueba (id serial primary key, titulo text not null unique, puntos int, datos jsonb, visto boolean not null default false, fecha timestamptz not null default now())`,
    );
  });
  afterAll(() => database.close());

  it('binds a statement Drizzle names to one named statement, whatever its values', async () => {
    const { db } = database;
    const insertar = db
      .insert(notas)
      .values({
        titulo: sql.placeholder('titulo'),
        puntos: sql.placeholder('puntos'),
        datos: sql.placeholder('datos'),
        visto: sql.placeholder('visto'),
        fecha: sql.placeholder('fecha'),
      })
      .returning()
      .prepare('insertar_nota');
    const leer = db
      .select()
      .from(notas)
      .where(eq(notas.titulo, sql.placeholder('titulo')))
      .prepare('leer_nota');
    const fecha = new Date('2026-03-01T12:30:00.000Z');
    const valores = [
      { titulo: 'Fracción y geometría: «ñandú»', puntos: 7, datos: { oas: ['MA04 OA 03'], n: 1 }, visto: true, fecha },
      { titulo: "O'Higgins; drop table notas_prueba; --", puntos: null, datos: null, visto: false, fecha },
      { titulo: 'x'.repeat(5000), puntos: -2_147_483_648, datos: [1, 'dos', { tres: 3 }], visto: true, fecha },
    ];
    for (const v of valores) {
      const [escrita] = await insertar.execute(v);
      expect(escrita).toMatchObject({ titulo: v.titulo, puntos: v.puntos, datos: v.datos, visto: v.visto });
      expect(escrita?.fecha.toISOString()).toBe(fecha.toISOString());
      expect(await leer.execute({ titulo: v.titulo })).toEqual([escrita]);
    }
    expect(await leer.execute({ titulo: 'no está' })).toEqual([]);
    // One named statement per text, prepared on its first run and reused for every value after it.
    expect(await nombradas(database)).toHaveLength(2);
  });

  it('parses any other statement for its own values, with the same answers', async () => {
    const { db } = database;
    const antes = await nombradas(database);
    for (const n of [1, 41, 0, -5]) {
      const filas = await filasDe<{ suma: number; eco: string | null }>(
        db,
        sql`select ${n}::int + 1 as suma, ${n > 0 ? `nº ${n}` : null}::text as eco`,
      );
      expect(filas).toEqual([{ suma: n + 1, eco: n > 0 ? `nº ${n}` : null }]);
    }
    const ids = await filasDe<{ n: number }>(
      db,
      sql`select count(*)::int as n from notas_prueba where id = any(${sql.param([1, 2, 99])}::int[])`,
    );
    expect(ids).toEqual([{ n: 2 }]);
    expect(await nombradas(database)).toEqual(antes);
  });

  it('reports a failed statement with its code and leaves the database usable, in and out of a transaction', async () => {
    const { db } = database;
    const insertar = db
      .insert(notas)
      .values({ titulo: sql.placeholder('titulo') })
      .prepare('insertar_titulo');
    await insertar.execute({ titulo: 'repetida' });
    const repetida = await insertar.execute({ titulo: 'repetida' }).catch((e: unknown) => e);
    expect(codigoError(repetida)).toBe('23505');
    const sintaxis = await db.execute(sql`select from where`).catch((e: unknown) => e);
    expect(codigoError(sintaxis)).toBe('42601');
    const enTransaccion = await db
      .transaction(async (tx) => {
        await tx.insert(notas).values({ titulo: 'dentro de la transacción' });
        await tx.insert(notas).values({ titulo: 'repetida' });
      })
      .catch((e: unknown) => e);
    expect(codigoError(enTransaccion)).toBe('23505');
    // The transaction's first insert was rolled back with it; the named statement still works.
    expect(await db.select().from(notas).where(eq(notas.titulo, 'dentro de la transacción'))).toEqual([]);
    await insertar.execute({ titulo: 'después del error' });
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(notas).where(eq(notas.titulo, 'después del error'))).toEqual([{ n: 1 }]);
  });

  it('runs twenty first runs of a named text at once on one prepared statement', async () => {
    const { db } = database;
    const antes = (await nombradas(database)).length;
    const leer = db
      .select({ n: sql<number>`${sql.placeholder('n')}::int * 2` })
      .from(notas)
      .limit(1)
      .prepare('doble');
    const respuestas = await Promise.all(Array.from({ length: 20 }, (_, i) => leer.execute({ n: i })));
    expect(respuestas).toEqual(Array.from({ length: 20 }, (_, i) => [{ n: i * 2 }]));
    expect(await nombradas(database)).toHaveLength(antes + 1);
  });
});

describe('the named statements themselves', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
  });
  afterAll(() => client.close());
  const abiertas = async () =>
    (await client.query<{ statement: string }>('select statement from pg_prepared_statements order by name')).rows;

  it('closes the least recently used one past its limit', async () => {
    const sentencias = crearSentencias(client, 2);
    const textos = ['select 1 as n', 'select 2 as n', 'select 3 as n'];
    for (const t of textos) sentencias.nombrar(t);
    for (const [i, t] of textos.entries()) expect((await sentencias.ejecutar(t, [], undefined, false)).rows).toEqual([{ n: i + 1 }]);
    // The first one was closed when the third was prepared; running it again prepares it anew.
    expect((await abiertas()).map((f) => f.statement)).toEqual(textos.slice(1));
    expect((await sentencias.ejecutar(textos[0] as string, [], undefined, false)).rows).toEqual([{ n: 1 }]);
    expect((await abiertas()).map((f) => f.statement)).toEqual([textos[2], textos[0]]);
  });

  it('prepares one again when its table changed under it', async () => {
    const sentencias = crearSentencias(client);
    await client.exec('create table cambiante (id int primary key); insert into cambiante values (1)');
    const texto = 'select * from cambiante where id = $1';
    sentencias.nombrar(texto);
    expect((await sentencias.ejecutar(texto, [1], undefined, false)).rows).toEqual([{ id: 1 }]);
    // PostgreSQL refuses the old statement ('cached plan must not change result type'): it is closed and prepared again.
    await client.exec(`alter table cambiante add column nombre text default 'uno'`);
    expect((await sentencias.ejecutar(texto, [1], undefined, false)).rows).toEqual([{ id: 1, nombre: 'uno' }]);
    expect((await abiertas()).filter((f) => f.statement === texto)).toHaveLength(1);
  });
});

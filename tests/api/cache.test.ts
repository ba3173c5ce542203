/**
 * The read caches (db/cambios.server.ts, db/cache.server.ts): answers reused until a table they
 * were read from is written, so nothing a person does shows late; and the bound for writes this
 * process cannot see (another server on the same PostgreSQL).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDeLecturas } from '../../src/lib/server/db/cache.server.ts';
import { CONTADORES, cambiosDe, createCambios, POR_DISPARADOR } from '../../src/lib/server/db/cambios.server.ts';
import { filasDe } from '../../src/lib/server/db/client.server.ts';
import { areas, capsulas, metodologias, unidades, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { type SessionCookies, sessionFromCookies } from '../../src/lib/server/http/session.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('table versions', () => {
  it('move on a write outside a transaction, at the commit of one inside, and never on reads or a rollback', () => {
    const cambios = createCambios(false);
    const sql = cambios.conexion();
    const v = () => [cambios.version(['capsulas']), cambios.version(['likes_capsulas']), cambios.version(['usuarios'])];
    expect(v()).toEqual([0, 0, 0]);
    sql('select "id" from "capsulas" where "id" = $1 for update');
    expect(v()).toEqual([0, 0, 0]);
    sql('update "capsulas" set "n_visitas" = $1');
    const [capsulasV] = v();
    expect(capsulasV).toBeGreaterThan(0);
    expect(v().slice(1)).toEqual([0, 0]);

    sql('begin');
    sql('insert into "likes_capsulas" ("id_recurso", "id_usuario") values ($1, $2)');
    sql('savepoint sp1');
    sql('rollback to savepoint sp1');
    expect(cambios.version(['likes_capsulas'])).toBe(0);
    sql('commit');
    expect(cambios.version(['likes_capsulas'])).toBeGreaterThan(capsulasV ?? 0);

    const antes = cambios.version(['usuarios']);
    sql('begin');
    sql('delete from "usuarios" where "id" = $1');
    sql('rollback');
    expect(cambios.version(['usuarios'])).toBe(antes);
    // A write we cannot attribute moves every table.
    sql('with x as (select 1) update "otra" set a = 1');
    expect(cambios.version(['capsulas'])).toBeGreaterThan(capsulasV ?? 0);
    expect(cambios.version(['usuarios'])).toBeGreaterThan(antes);
  });

  it('stay where they are after a write that changed no rows, inside a transaction or not', () => {
    const cambios = createCambios(false);
    const sql = cambios.conexion();
    sql('update "usuarios" set "baja_programada" = $1 where "id" = $2 and "baja_programada" is not null', 0);
    sql('begin');
    sql('insert into "likes_capsulas" ("id_recurso", "id_usuario") values ($1, $2) on conflict do nothing', 0);
    sql('commit');
    expect([cambios.version(['usuarios']), cambios.version(['likes_capsulas'])]).toEqual([0, 0]);
    sql('update "usuarios" set "activo" = $1 where "id" = $2', 1);
    expect(cambios.version(['usuarios'])).toBeGreaterThan(0);
    // A count the driver did not give, or a statement whose table is unknown, still moves it.
    sql('delete from "likes_capsulas" where "id_recurso" = $1');
    expect(cambios.version(['likes_capsulas'])).toBeGreaterThan(0);
    const antes = cambios.version(['capsulas']);
    sql('with x as (select 1) update "otra" set a = 1', 0);
    expect(cambios.version(['capsulas'])).toBeGreaterThan(antes);
  });

  it("move apart on a write of only an item's counters, which the caches that show none may pass over", () => {
    const cambios = createCambios(false);
    const sql = cambios.conexion();
    const sin = new Set(['materiales']);
    const v = () => [cambios.version(['materiales']), cambios.version(['materiales'], sin)];
    sql('update "materiales" set "n_visitas" = "materiales"."n_visitas" + 1 where "materiales"."id" = $1', 1);
    const [vista] = v();
    expect(v()).toEqual([vista, 0]);
    expect(vista).toBeGreaterThan(0);
    // A comment moves its item's counters by a trigger: the same, at its transaction's commit.
    sql('begin');
    sql('insert into "comentarios" ("contenido", "id_material") values ($1, $2)', 1);
    sql('update "capsulas" set "n_comentarios" = "capsulas"."n_comentarios" - $1 where "capsulas"."id" = $2', 1);
    expect(v()).toEqual([vista, 0]);
    sql('commit');
    const [comentada] = v();
    expect(comentada).toBeGreaterThan(vista ?? 0);
    expect(v()[1]).toBe(0);
    expect(cambios.version(['capsulas'], new Set(['capsulas']))).toBe(0);
    expect(cambios.version(['comentarios'], new Set(['comentarios']))).toBe(comentada);
    // Anything else in the row, or a counter set to a value or with another column, moves both.
    for (const escritura of [
      'update "materiales" set "titulo" = $1 where "materiales"."id" = $2',
      'update "materiales" set "n_visitas" = $1 where "materiales"."id" = $2',
      'update "materiales" set "n_visitas" = "materiales"."n_visitas" + 1, "titulo" = $1 where "materiales"."id" = $2',
    ]) {
      const [antes] = v();
      sql(escritura, 1);
      const [despues, sinContar] = v();
      expect(despues).toBeGreaterThan(antes ?? 0);
      expect(sinContar).toBe(despues);
    }
  });
});

describe('cached answers', () => {
  let t: TestApi;
  let admin: { id: number; token: string };
  let docente: { id: number; email: string; token: string };
  let nueva: (titulo: string) => Promise<number>;
  beforeAll(async () => {
    t = await createTestApi();
    admin = await t.session({ admin: true });
    docente = await t.session();
    const [area] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
    const [metodologia] = await t.db.select().from(metodologias);
    const [unidad] = await t.db
      .select()
      .from(unidades)
      .where(eq(unidades.id_area, area?.id ?? 0));
    if (!area || !metodologia || !unidad) throw new Error('catalogues missing');
    nueva = async (titulo) => {
      const [row] = await t.db
        .insert(capsulas)
        .values({
          titulo,
          descripcion: 'Video',
          extension: 'mp4',
          archivo: 'x',
          estado: 'listo',
          id_area: area.id,
          codigo_nivel: unidad.codigo_nivel,
          id_metodologia: metodologia.id,
          id_usuario: admin.id,
        })
        .returning();
      return row?.id ?? 0;
    };
  });
  afterAll(() => t.close());

  it("name every table the database's triggers write, so a write that fires one renews the caches read from it", async () => {
    // The trigger functions' sources, and those of the functions they PERFORM, as the migrations left them.
    const funciones = new Map(
      (
        await filasDe<{ nombre: string; fuente: string }>(
          t.db,
          sql`select proname as nombre, prosrc as fuente from pg_proc where pronamespace = 'public'::regnamespace`,
        )
      ).map((f) => [f.nombre, f.fuente]),
    );
    const disparadores = await filasDe<{ tabla: string; funcion: string }>(
      t.db,
      sql`select c.relname as tabla, p.proname as funcion from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_proc p on p.oid = g.tgfoid where not g.tgisinternal`,
    );
    // Each write as `table` or, for an update, `table.columns it sets`.
    const escritas = (funcion: string, vistas = new Set<string>()): string[] => {
      if (vistas.has(funcion)) return [];
      vistas.add(funcion);
      const fuente = funciones.get(funcion) ?? '';
      const directas = [
        ...fuente.matchAll(/\binsert\s+into\s+public\.(\w+)/gi),
        ...fuente.matchAll(/\bupdate\s+public\.(\w+)(?:\s+\w+)?\s+set\s+(.*?)\s+(?:from|where)\b/gis),
      ].map(([, otra, asignadas]) => {
        const columnas = [...(asignadas ?? '').matchAll(/(?:^|,)\s*(\w+)\s*=/g)].map((c) => c[1]);
        return asignadas === undefined ? (otra as string) : `${otra}.${columnas.join(',')}`;
      });
      const llamadas = [...fuente.matchAll(/\bperform\s+public\.(\w+)\s*\(/gi)].flatMap((m) => escritas(m[1] as string, vistas));
      return [...directas, ...llamadas];
    };
    // versiones_conteo is the lists' totals' own token (db/conteos.server.ts), read on every count, never through a cache.
    // A table named in POR_DISPARADOR is written by its triggers in one counter at a time, and in nothing else.
    const contadores: readonly string[] = CONTADORES;
    const faltan = disparadores.flatMap(({ tabla, funcion }) =>
      escritas(funcion)
        .filter((escrita) => {
          const [otra, columnas] = escrita.split('.');
          if (otra === tabla || otra === 'versiones_conteo') return false;
          return !POR_DISPARADOR[tabla]?.includes(otra as string) || columnas === undefined || !contadores.includes(columnas);
        })
        .map((otra) => `${tabla} -> ${otra}`),
    );
    expect(disparadores.length).toBeGreaterThan(0);
    expect([...new Set(faltan)]).toEqual([]);
  });

  const lista = async () => {
    const res = await t.call('GET', '/api/capsulas/?tamano_pagina=50', { token: docente.token });
    expect(res.status).toBe(200);
    return (await res.json()) as { capsula: { id: number; titulo: string; likes: unknown[]; comentarios: number; n_visitas: number }[] };
  };

  it('show a new capsule, a like, a comment and a view in the list at once', async () => {
    const primera = await nueva('Fracciones con material concreto');
    expect((await lista()).capsula.map((c) => c.id)).toContain(primera);
    const segunda = await nueva('Lectura compartida');
    expect((await lista()).capsula.map((c) => c.id)).toContain(segunda);

    const like = await t.call('POST', '/api/capsulas/like/', { token: docente.token, json: { id_capsula: primera, add: true } });
    expect(like.status).toBe(200);
    expect((await lista()).capsula.find((c) => c.id === primera)?.likes).toEqual([{ id: docente.id }]);

    const comentario = await t.call('POST', '/api/capsulas/comentarios/', {
      token: docente.token,
      json: { id_capsula: primera, contenido: 'Muy claro, gracias' },
    });
    expect(comentario.status).toBe(201);
    expect((await lista()).capsula.find((c) => c.id === primera)?.comentarios).toBe(1);

    expect((await t.call('GET', `/api/capsulas/${primera}/`, { token: docente.token })).status).toBe(200);
    expect((await lista()).capsula.find((c) => c.id === primera)?.n_visitas).toBe(1);

    await t.db.update(capsulas).set({ estado: 'error' }).where(eq(capsulas.id, segunda));
    expect((await lista()).capsula.map((c) => c.id)).not.toContain(segunda);
  });

  it("that show no counter hold through a counted view and a comment, and not through the item's other changes", async () => {
    const id = await nueva('Energía y movimiento');
    const opciones = { tablas: [capsulas], segundos: 2, max: 1, now: () => t.clock.now };
    const sinContar = cacheDeLecturas<number>(t.db, { ...opciones, sinContadores: [capsulas] });
    const contando = cacheDeLecturas<number>(t.db, opciones);
    const lecturas = { sinContar: 0, contando: 0 };
    const leer = async () => [
      await sinContar.leer('', async () => ++lecturas.sinContar),
      await contando.leer('', async () => ++lecturas.contando),
    ];
    expect(await leer()).toEqual([1, 1]);
    expect((await t.call('GET', `/api/capsulas/${id}/`, { token: docente.token })).status).toBe(200);
    const [fila] = await t.db.select({ n: capsulas.n_visitas }).from(capsulas).where(eq(capsulas.id, id));
    expect(fila?.n).toBe(1);
    expect(await leer()).toEqual([1, 2]);
    const comentario = await t.call('POST', '/api/capsulas/comentarios/', {
      token: docente.token,
      json: { id_capsula: id, contenido: 'Lo usaré en séptimo' },
    });
    expect(comentario.status).toBe(201);
    expect(await leer()).toEqual([1, 3]);
    await t.db.update(capsulas).set({ titulo: 'Energía y trabajo' }).where(eq(capsulas.id, id));
    expect(await leer()).toEqual([2, 4]);
  });

  it('are not read again after a sign-in, whose writes to usuarios change no row (on either database)', async () => {
    const cambios = cambiosDe(t.db);
    const version = () => cambios?.version(['usuarios']);
    await t.login(docente.email);
    const antes = version();
    expect(antes).toBeDefined();
    await t.login(docente.email);
    expect(version()).toBe(antes);
    // A real change to the row still moves it.
    const res = await t.call('PUT', `/api/usuarios/${docente.id}/preferencias/`, { token: docente.token, json: { ahorro_datos: true } });
    expect(res.status).toBeLessThan(300);
    expect(version()).toBeGreaterThan(antes ?? 0);
  });

  it('show a write this process did not see once the bound for other processes has passed', async () => {
    const id = await nueva('Geometría en el patio');
    expect((await lista()).capsula.find((c) => c.id === id)?.titulo).toBe('Geometría en el patio');
    // Another server's write: straight to the database, past this process's tracking.
    const client = (t.db as unknown as { $client: { query: (sql: string) => Promise<unknown> } }).$client;
    const untracked = Object.getPrototypeOf(client).query as (this: unknown, sql: string) => Promise<unknown>;
    await untracked.call(client, `update capsulas set titulo = 'Geometría en la plaza' where id = ${id}`);
    const compartida = Boolean(process.env.DATABASE_URL);
    t.clock.now = new Date(t.clock.now.getTime() + (compartida ? 2_001 : 300_001));
    expect((await lista()).capsula.find((c) => c.id === id)?.titulo).toBe('Geometría en la plaza');
  });

  it('kept by age alone (tablas: null) hold through writes and are read again after their seconds, per key', async () => {
    let ahora = new Date('2026-11-29T12:00:00Z');
    const porEdad = cacheDeLecturas<number>(t.db, { tablas: null, segundos: 60, max: 1, now: () => ahora });
    let lecturas = 0;
    const leer = () => porEdad.leer('hoy', async () => ++lecturas);
    expect(await leer()).toBe(1);
    await nueva('Escrita mientras tanto');
    ahora = new Date(ahora.getTime() + 59_999);
    expect(await leer()).toBe(1);
    ahora = new Date(ahora.getTime() + 1);
    expect(await leer()).toBe(2);
    // Another key (the next day) is read at once, and takes the place of the only entry kept.
    expect(await porEdad.leer('mañana', async () => ++lecturas)).toBe(3);
    expect(await leer()).toBe(4);
    // A failed read is not kept.
    await expect(porEdad.leer('falla', () => Promise.reject(new Error('caída')))).rejects.toThrow('caída');
    expect(await porEdad.leer('falla', async () => ++lecturas)).toBe(5);
  });

  it('keep an answer another read found only while nothing was written since that read began', async () => {
    const cache = cacheDeLecturas<number>(t.db, { tablas: [capsulas], segundos: 2, max: 10, now: () => t.clock.now });
    let lecturas = 0;
    const leer = () => cache.leer('cuenta', async () => ++lecturas * 100);
    // A list that counted the same rows, with nothing written since it began: its count is the answer.
    cache.poner('cuenta', cache.version(), 7);
    expect(await leer()).toBe(7);
    expect(lecturas).toBe(0);
    // A capsule written while the list was being read: what the list counted may miss it.
    const antes = cache.version();
    await nueva('Escrita durante la lista');
    cache.poner('cuenta', antes, 8);
    expect(await leer()).toBe(100);
    expect(await leer()).toBe(100);
  });

  it('show the signed-in person their own profile change on the next page', async () => {
    const { access, refresh } = await t.login(docente.email);
    const cookies: SessionCookies = {
      get: (name) => (name === 'ed_access' ? { value: access } : name === 'ed_refresh' ? { value: refresh } : undefined),
      set: () => undefined,
    };
    const pagina = () => sessionFromCookies({ api: t.api }, cookies);
    expect((await pagina())?.usuario_asociado?.area ?? []).toEqual([]);
    const res = await t.call('POST', `/api/usuarios/profesores/${docente.id}/areas/`, { token: access, json: { area: 'Matemática' } });
    expect(res.status).toBe(201);
    expect((await pagina())?.usuario_asociado?.area).toEqual(['Matemática']);
    await t.db.update(usuarios).set({ primer_nombre: 'Ana Luisa' }).where(eq(usuarios.id, docente.id));
    expect((await pagina())?.primer_nombre).toBe('Ana Luisa');
  });
});

/**
 * Counts kept between requests and still exact (issue 36, decision 0081): the materials' and the
 * manuals' list totals (db/paginar.server.ts takes them as its count) and the curriculum map's
 * grouped counts (services/cobertura.server.ts), each checked against its table's version in
 * `versiones_conteo`, which triggers move (drizzle/0021, drizzle/0029).
 */
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.server.ts';
import { MODERADAS } from './moderadas.server.ts';
import { versionesConteo } from './schema.server.ts';

/** A list's total in two parts (decision 0081). */
export interface PartesDelTotal {
  /** The table's entry in `versiones_conteo` (drizzle/0021, drizzle/0029). */
  tabla: TablaContada;
  /** The list's filter (undefined: none). */
  filtro: SQL | undefined;
  /**
   * Who reads, unless an admin (undefined), who sees everything. Anyone else sees what moderation
   * did not hide (`oculto`), counted once per version of the table for all of them, and their own
   * hidden rows besides, counted on each request when they have any.
   */
  lector: number | undefined;
  /**
   * What every reader sees, counted some cheaper way than from `tabla` (an OA's links): its key
   * among the kept counts and how to count it. Without it, the filter's rows less the hidden ones.
   */
  comun?: { clave: string; contar: () => Promise<number> };
}

/** A table whose count version triggers keep (drizzle/0021, drizzle/0029). */
export type TablaContada = Extract<keyof typeof MODERADAS, 'materiales' | 'manuales'>;

/** A table's version in `versiones_conteo` (null before its first write). */
type Version = string | null;

/**
 * Counts of a table kept between requests and still exact (issue 36, decision 0081): each is kept
 * under a key (up to `max` keys, the least recently used dropped) with the table's version in
 * `versiones_conteo` it was counted under, and used while that version stands. The version is
 * read before counting, so a count that saw a write is never kept under the version before it.
 * A count in progress is kept too: the requests that arrive meanwhile for the same key and version
 * wait for it instead of each counting the whole table again (at 100x, twenty at once on a new
 * filter made its first answers take a second).
 */
export function crearConteos(db: Db, max = 2_000) {
  const guardados = new Map<string, { version: Version; valor: Promise<unknown> }>();
  const leerVersion = db
    .select({ version: versionesConteo.version })
    .from(versionesConteo)
    .where(eq(versionesConteo.tabla, sql.placeholder('tabla')))
    .prepare('version_conteo');
  const versionDe = async (tabla: TablaContada): Promise<Version> => (await leerVersion.execute({ tabla }))[0]?.version ?? null;

  /** The value kept under `clave` for `version`, or `contar`'s, kept under it. */
  function conVersion<T>(version: Version, clave: string, contar: () => Promise<T>): Promise<T> {
    const guardado = guardados.get(clave);
    guardados.delete(clave);
    const valor = guardado?.version === version ? (guardado.valor as Promise<T>) : contar();
    const entrada = { version, valor };
    guardados.set(clave, entrada);
    if (guardados.size > max) guardados.delete(guardados.keys().next().value as string);
    // A count that failed is not kept: the next request counts again.
    valor.catch(() => {
      if (guardados.get(clave) === entrada) guardados.delete(clave);
    });
    return valor;
  }

  /**
   * Whether `autor` has hidden rows in `tabla` (`oculto`), from the set of those who do, kept per
   * version: most readers have none, and their own part of a total or of the map is then 0
   * without counting it.
   */
  async function tieneOcultos(tabla: TablaContada, version: Version, autor: number): Promise<boolean> {
    const { tabla: t, autor: columna } = MODERADAS[tabla];
    const autores = await conVersion(version, `${tabla} autores de ocultos`, async () => {
      const filas = await db.selectDistinct({ id: columna }).from(t).where(eq(t.oculto, true));
      return new Set(filas.map((f) => f.id));
    });
    return autores.has(autor);
  }

  return {
    /** The table's version now: read it once per request, then ask `conVersion` and `tieneOcultos` under it. */
    version: versionDe,
    conVersion,
    /** `contar`'s value for `clave`, counted again only when `tabla`'s version moved (one count's own read of the version). */
    porVersion: async <T>(tabla: TablaContada, clave: string, contar: () => Promise<T>) =>
      conVersion(await versionDe(tabla), clave, contar),
    tieneOcultos,
    /**
     * A list's total: the part everyone sees kept per filter (the count's SQL is the key), the
     * reader's own part counted each time they have hidden rows. The part everyone sees is the
     * filter's rows less the hidden ones among them, not the rows that are not hidden: the first
     * can be read from an index alone (a unit's 32,000 materials at 100x: 7 ms, against 610 ms
     * checking each row's `oculto`), the second through the partial index of hidden rows (decision
     * 0081 amended).
     */
    async total({ tabla: nombre, filtro, lector, comun }: PartesDelTotal): Promise<number> {
      const { tabla, autor } = MODERADAS[nombre] as { tabla: PgTable & { oculto: PgColumn }; autor: PgColumn };
      const sinOcultos = lector !== undefined;
      const contar = async (where: SQL | undefined) => (await db.select({ n: count() }).from(tabla).where(where))[0]?.n ?? 0;
      const todos = db.select({ n: count() }).from(tabla).where(filtro).toSQL();
      const { clave, contar: contarComun } = comun ?? {
        clave: `${sinOcultos ? 'sin ocultos' : 'todos'}\u0000${todos.sql}\u0000${JSON.stringify(todos.params)}`,
        contar: async () => {
          const [n, ocultos] = await Promise.all([contar(filtro), sinOcultos ? contar(and(eq(tabla.oculto, true), filtro)) : 0]);
          return n - ocultos;
        },
      };
      const version = await versionDe(nombre);
      const propios = async () =>
        lector !== undefined && (await tieneOcultos(nombre, version, lector))
          ? contar(and(eq(tabla.oculto, true), eq(autor, lector), filtro))
          : 0;
      const [a, b] = await Promise.all([conVersion(version, clave, contarComun), propios()]);
      return a + b;
    },
  };
}

/** A count query over some rows, for a condition: it must be run and must show its SQL. */
type Conteo = (where: SQL | undefined) => PromiseLike<{ n: number }[]> & { toSQL(): { sql: string; params: unknown[] } };

/**
 * A total in the two parts of decision 0081: what every reader sees (`comun`) kept by `guardar`
 * under the count's SQL and parameters, what only this reader sees besides (`propio`) counted on
 * each request, at the same time.
 */
export async function totalEnDosPartes(
  contar: Conteo,
  partes: { comun: SQL | undefined; propio?: SQL | undefined },
  guardar: (clave: string, contar: () => Promise<number>) => Promise<number>,
): Promise<number> {
  const comun = contar(partes.comun);
  const { sql, params } = comun.toSQL();
  const [n, propios] = await Promise.all([
    guardar(`${sql}\u0000${JSON.stringify(params)}`, async () => (await comun)[0]?.n ?? 0),
    partes.propio ? contar(partes.propio) : [],
  ]);
  return n + (propios[0]?.n ?? 0);
}

export type Conteos = ReturnType<typeof crearConteos>;

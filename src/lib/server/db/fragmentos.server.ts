/** Pieces of hand-written SQL the services share (issue 36). */
import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * A column named with its table (or an alias). Drizzle writes a column alone ("id") when its
 * query reads one table, so inside a subquery over another table that name would mean the inner
 * table's column, silently.
 */
export const calificada = (columna: PgColumn, tabla: string = getTableName(columna.table)): SQL =>
  sql`${sql.identifier(tabla)}.${sql.identifier(columna.name)}`;

/** Columns named with an alias of their table: `const o = enAlias('o')`, then `o(oas.id)`. */
export const enAlias =
  (alias: string) =>
  (columna: PgColumn): SQL =>
    calificada(columna, alias);

/**
 * `columna` is one of the array given as `nombre` when a prepared query runs: one statement text
 * for any number of ids, so PostgreSQL plans it once per connection instead of on every call.
 */
export const unoDe = (columna: PgColumn, nombre: string): SQL => sql`${columna} = any(${sql.placeholder(nombre)})`;

/**
 * A list as a column (json, '[]' when empty): `elemento` for each row `desde` (a subquery's FROM
 * and WHERE, tied to the outer row) gives, in `orden`. A page's items and their lists in one
 * statement, instead of one more query per list.
 */
export const listaJson = <T>(elemento: SQL, orden: SQL, desde: SQL): SQL<T[]> =>
  sql<T[]>`coalesce((select json_agg(${elemento} order by ${orden}) ${desde}), '[]'::json)`;

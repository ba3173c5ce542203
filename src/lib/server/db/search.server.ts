/**
 * Text search for every list: PostgreSQL full-text search with the 'spanish' configuration over
 * accent-free text (migration 0001), so 'matematicas' finds 'Matemáticas' and 'fraccion' finds
 * 'fracciones'. Each word the person typed must match, the last one as a prefix (search as you
 * type). The document expression must be the one the migration indexes.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * `column` holds the same name as `nombre` but for case and accents ('matematica' is
 * 'Matemática'): how people type names of areas, schools and specialties.
 */
export const mismoNombre = (column: PgColumn, nombre: string): SQL =>
  sql`lower(public.f_unaccent(${column})) = lower(public.f_unaccent(${nombre}))`;

/** Words of the query as tsquery terms: letters and digits only, so no input can break the syntax. */
export function terminos(q: string): string[] {
  return q
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 12);
}

/**
 * `q` as a tsquery for to_tsquery('spanish', f_unaccent(...)): every word (`&`), or any of them
 * (`|`), the last one as a prefix. Undefined when the query has no words.
 */
export function consultaTs(q: string | undefined, union: '&' | '|' = '&'): string | undefined {
  const words = terminos(q ?? '');
  if (words.length === 0) return undefined;
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(` ${union} `);
}

/** `busqueda_es(documento) @@ query`, or undefined when the query has no words. */
export function coincideDocumento(documento: SQLWrapper, q: string | undefined): SQL | undefined {
  const query = consultaTs(q);
  return query === undefined ? undefined : sql`busqueda_es(${documento}) @@ to_tsquery('spanish', f_unaccent(${query}))`;
}

/** `busqueda_es(a || ' ' || b) @@ query`, or undefined when the query has no words. */
export function coincideTexto(columns: [PgColumn, PgColumn], q: string | undefined): SQL | undefined {
  const [a, b] = columns;
  return coincideDocumento(sql`${a} || ' ' || ${b}`, q);
}

/**
 * Every word of `q` appears (case and accents aside) inside one of `columns`: for short
 * identifying fields (names, emails, schools, the audit log) where a word may sit mid-text
 * ('perez' finds 'ana.perez@x.cl'). Undefined when the query has no words.
 */
export function contienePalabras(columns: SQLWrapper[], q: string | undefined): SQL | undefined {
  const words = terminos(q ?? '');
  if (words.length === 0) return undefined;
  const porPalabra = words.map((w) => {
    const patron = `%${w}%`;
    return sql.join(
      columns.map((c) => sql`lower(public.f_unaccent(${c})) like ${patron}`),
      sql` or `,
    );
  });
  return sql.join(
    porPalabra.map((p) => sql`(${p})`),
    sql` and `,
  );
}

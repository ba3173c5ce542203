/**
 * One page of a content list (capsules, materials, manuals): the total and the ids of the page,
 * newest first or most viewed first, ties broken by id so pages never overlap.
 */
import { count, desc, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { numPaginas } from '../../validation/listas.ts';
import type { Db } from './client.server.ts';

interface Listable {
  id: PgColumn;
  n_visitas: PgColumn;
  fecha_creacion: PgColumn;
}

export interface Pagina {
  pagina: number;
  tamano_pagina: number;
  order: 'fecha' | 'n_visitas';
}

/**
 * The deepest a list pages (issue 36): a page is read through the order's index, skipping every
 * row before it, so the pages stop at the first MAX_FILAS_PAGINADAS rows (page 1,000 at 10 a page):
 * `num_pages` counts no further and a page beyond answers no items. `num_results` stays the true
 * count: filters and the search narrow a list to what can be paged.
 */
export const MAX_FILAS_PAGINADAS = 10_000;

export async function paginaDeIds(
  db: Db,
  tabla: PgTable & Listable,
  where: SQL | undefined,
  f: Pagina,
  contar: () => Promise<number> = async () => (await db.select({ n: count() }).from(tabla).where(where))[0]?.n ?? 0,
) {
  const saltar = (f.pagina - 1) * f.tamano_pagina;
  const [num_results, rows] = await Promise.all([
    contar(),
    saltar >= MAX_FILAS_PAGINADAS
      ? []
      : db
          .select({ id: tabla.id })
          .from(tabla)
          .where(where)
          .orderBy(desc(f.order === 'n_visitas' ? tabla.n_visitas : tabla.fecha_creacion), desc(tabla.id))
          .limit(f.tamano_pagina)
          .offset(saltar),
  ]);
  const num_pages = Math.min(numPaginas(num_results, f.tamano_pagina), Math.ceil(MAX_FILAS_PAGINADAS / f.tamano_pagina));
  return { ids: rows.map((r) => Number(r.id)), num_pages, num_results };
}

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

export async function paginaDeIds(db: Db, tabla: PgTable & Listable, where: SQL | undefined, f: Pagina) {
  const [total] = await db.select({ n: count() }).from(tabla).where(where);
  const rows = await db
    .select({ id: tabla.id })
    .from(tabla)
    .where(where)
    .orderBy(desc(f.order === 'n_visitas' ? tabla.n_visitas : tabla.fecha_creacion), desc(tabla.id))
    .limit(f.tamano_pagina)
    .offset((f.pagina - 1) * f.tamano_pagina);
  const num_results = total?.n ?? 0;
  return { ids: rows.map((r) => Number(r.id)), num_pages: numPaginas(num_results, f.tamano_pagina), num_results };
}

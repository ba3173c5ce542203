/**
 * What anyone may see without signing in (issue 34, decision 0067): the capsules, materials and
 * manuals whose author chose 'cualquier persona' with an open licence. One condition says which
 * items are public, so the pages under /explorar/, the sitemap and the file routes never drift:
 * not hidden by moderation, a capsule ready to play, an author neither deactivated nor erased.
 * Everything is read at request time, so an item that stops being public leaves every list, page
 * and file route at once (only a shared cache may keep a page, for PUBLICO_MAX_AGE seconds).
 */
import { and, desc, eq, exists, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { TipoPublico } from '../../explorar.ts';
import type { Db } from '../db/client.server.ts';
import { paginaDeIds } from '../db/paginar.server.ts';
import { capsulas, manuales, materiales, materialesOas, usuarios } from '../db/schema.server.ts';
import type { Actor } from './actor.server.ts';
import type { BibliotecaService } from './biblioteca.server.ts';
import type { CapsulasService } from './capsulas.server.ts';
import type { ManualesService } from './manuales.server.ts';

/** Seconds a shared cache (a CDN) may keep a public page or file answer. */
export const PUBLICO_MAX_AGE = 300;

/** Who reads a public item's files without a session: no account has id 0, and it is no admin. */
export const LECTOR_PUBLICO: Actor = { id: 0, groups: [] };

export type { TipoPublico };

const tablas = { capsula: capsulas, material: materiales, manual: manuales } as const;

/** The condition for a query's where: the item is public now. */
function esPublicaAhora(db: Db, tipo: TipoPublico): SQL {
  const tabla = tablas[tipo];
  const autorActivo = exists(
    db
      .select({ uno: sql`1` })
      .from(usuarios)
      .where(and(eq(usuarios.id, tabla.id_usuario), isNull(usuarios.desactivada_en), isNull(usuarios.eliminada_en))),
  );
  const base = and(eq(tabla.visibilidad, 'publico'), ne(tabla.licencia, 'reservados'), eq(tabla.oculto, false), autorActivo) as SQL;
  return tipo === 'capsula' ? (and(base, eq(capsulas.estado, 'listo')) as SQL) : base;
}

/** Whether one item is public now (its file routes then answer without a session). */
export async function esPublicoAhora(db: Db, tipo: TipoPublico, id: number): Promise<boolean> {
  const tabla = tablas[tipo];
  const [row] = await db
    .select({ id: tabla.id })
    .from(tabla)
    .where(and(eq(tabla.id, id), esPublicaAhora(db, tipo)));
  return row !== undefined;
}

export interface FiltrosExplorar {
  nivel?: string | undefined;
  area?: number | undefined;
  oa?: number | undefined;
  pagina: number;
}

export const POR_PAGINA_EXPLORAR = 12;

export function createPublicosService(
  db: Db,
  deps: { capsulas: CapsulasService; biblioteca: BibliotecaService; manuales: ManualesService },
) {
  const esPublico = (tipo: TipoPublico, id: number) => esPublicoAhora(db, tipo, id);

  const conOa = (oa: number) =>
    exists(
      db
        .select({ uno: sql`1` })
        .from(materialesOas)
        .where(and(eq(materialesOas.id_material, materiales.id), eq(materialesOas.id_oa, oa))),
    );
  /** A public item as its API answer has it (read by `leer`), or null (private, hidden, gone: the page answers 404). */
  const siPublico = async <R>(tipo: TipoPublico, id: number, leer: (ids: number[]) => Promise<R[]>): Promise<R | null> =>
    (await esPublico(tipo, id)) ? ((await leer([id]))[0] ?? null) : null;

  return {
    esPublico,

    capsula: (id: number) => siPublico('capsula', id, deps.capsulas.porIds),
    material: (id: number) => siPublico('material', id, deps.biblioteca.porIds),
    manual: (id: number) => siPublico('manual', id, deps.manuales.porIds),

    /**
     * /explorar/: one page of each kind that fits the filters. Manuals have no level and capsules
     * and manuals no OAs, so a filter they cannot meet leaves their list empty.
     */
    async explorar(f: FiltrosExplorar) {
      const p = { pagina: f.pagina, tamano_pagina: POR_PAGINA_EXPLORAR, order: 'fecha' as const };
      const sinLista = { ids: [] as number[], num_pages: 1, num_results: 0 };
      // One kind's public items on the level and area asked (the level only where the kind has one).
      const lista = (tipo: TipoPublico, ...mas: (SQL | undefined)[]) => {
        const tabla = tablas[tipo];
        const nivel = f.nivel && 'codigo_nivel' in tabla ? eq(tabla.codigo_nivel, f.nivel) : undefined;
        return paginaDeIds(db, tabla, and(esPublicaAhora(db, tipo), nivel, f.area ? eq(tabla.id_area, f.area) : undefined, ...mas), p);
      };
      const [c, m, ma] = await Promise.all([
        f.oa ? sinLista : lista('capsula'),
        lista('material', f.oa ? conOa(f.oa) : undefined),
        f.oa || f.nivel ? sinLista : lista('manual'),
      ]);
      const [lc, lm, lma] = await Promise.all([deps.capsulas.porIds(c.ids), deps.biblioteca.porIds(m.ids), deps.manuales.porIds(ma.ids)]);
      return {
        capsulas: lc,
        materiales: lm,
        manuales: lma,
        num_pages: Math.max(c.num_pages, m.num_pages, ma.num_pages),
        num_results: c.num_results + m.num_results + ma.num_results,
      };
    },

    /** Every public item with its last change, newest first: the sitemap's entries. */
    async mapa(limite = 45_000) {
      const filas = async (tipo: TipoPublico) => {
        const tabla = tablas[tipo];
        const rows = await db
          .select({ id: tabla.id, titulo: tabla.titulo, fecha: sql<Date>`coalesce(${tabla.fecha_actualizacion}, ${tabla.fecha_creacion})` })
          .from(tabla)
          .where(esPublicaAhora(db, tipo))
          .orderBy(desc(tabla.id))
          .limit(limite);
        return rows.map((r) => ({ tipo, id: r.id, titulo: r.titulo, fecha: new Date(r.fecha) }));
      };
      const [c, m, ma] = await Promise.all([filas('capsula'), filas('material'), filas('manual')]);
      return [...c, ...m, ...ma];
    },
  };
}

export type PublicosService = ReturnType<typeof createPublicosService>;

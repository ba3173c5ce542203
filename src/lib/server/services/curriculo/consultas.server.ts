/**
 * The curriculum as the admin console reads it (issue 30): the (area, nivel) pairs with their
 * counts, the OA search, one pair's tree and the rows of the export. Positions are answered from
 * 1 in the stored order (`orden`, then code), so rows seeded before orden existed (0) still read
 * as a sequence.
 */
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { BUSQUEDA_OAS_MAX, type FiltrosCurriculo } from '../../../validation/curriculo.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, areasNiveles, materiales, materialesOas, niveles, oas, unidades } from '../../db/schema.server.ts';
import { contienePalabras } from '../../db/search.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { nombresDeNiveles, otrosNivelesSql, unidadEnNivel } from './niveles.server.ts';

export const AREA_NO_ENCONTRADA = 'No se encontró la asignatura';
export const NIVEL_NO_ENCONTRADO = 'No se encontró el nivel';
export const PAR_NO_ENSENADO = 'La asignatura no se enseña en ese nivel';

type Lector = Pick<Db, 'select'>;
export type AreaFila = { id: number; codigo: string; nombre: string };
export type NivelFila = { codigo: string; nombre: string; ciclo: string };
export type FilaCurriculo = Esquema<'FilaCurriculo'>;

/** An area by id (digits) or code, case aside. */
export async function areaDe(db: Lector, area: string, estado: 400 | 404 = 404): Promise<AreaFila> {
  const porId = /^\d{1,9}$/.test(area);
  const [fila] = await db
    .select({ id: areas.id, codigo: areas.codigo, nombre: areas.nombre })
    .from(areas)
    .where(porId ? eq(areas.id, Number(area)) : sql`upper(${areas.codigo}) = ${area.toUpperCase()}`);
  if (!fila) throw new ErrorDeDominio(estado, AREA_NO_ENCONTRADA);
  return fila;
}

export async function nivelDe(db: Lector, nivel: string, estado: 400 | 404 = 404): Promise<NivelFila> {
  const [fila] = await db
    .select({ codigo: niveles.codigo, nombre: niveles.nombre, ciclo: niveles.ciclo })
    .from(niveles)
    .where(sql`upper(${niveles.codigo}) = ${nivel.toUpperCase()}`);
  if (!fila) throw new ErrorDeDominio(estado, NIVEL_NO_ENCONTRADO);
  return fila;
}

/** The pair, which must be taught (areas_niveles). */
export async function parDe(db: Lector, area: string, nivel: string, estado: 400 | 404 = 404) {
  const [a, n] = [await areaDe(db, area, estado), await nivelDe(db, nivel, estado)];
  const [ensenado] = await db
    .select({ id: areasNiveles.id_area })
    .from(areasNiveles)
    .where(and(eq(areasNiveles.id_area, a.id), eq(areasNiveles.codigo_nivel, n.codigo)));
  if (!ensenado) throw new ErrorDeDominio(estado, PAR_NO_ENSENADO);
  return { area: a, nivel: n };
}

const clave = (area: number, nivel: string) => `${area}:${nivel}`;
const numero = (columna: SQL) => sql<number>`${columna}`.mapWith(Number);
/** Whether the OA is in force: it and its unit. */
export const oaVigenteSql = sql`(${oas.vigente} and ${unidades.vigente})`;

/** GET /api/admin/curriculo/: every taught pair with its counts and, with `q`, up to 50 OAs. */
export async function resumen(db: Db, filtros: Partial<FiltrosCurriculo>): Promise<Esquema<'CurriculoAdmin'>> {
  const area = filtros.area ? await areaDe(db, filtros.area, 400) : undefined;
  const nivel = filtros.nivel ? await nivelDe(db, filtros.nivel, 400) : undefined;
  const [pares, porUnidades, porOas, porMateriales] = await Promise.all([
    db
      .select({
        area: { id: areas.id, codigo: areas.codigo, nombre: areas.nombre },
        nivel: { codigo: niveles.codigo, nombre: niveles.nombre, ciclo: niveles.ciclo },
      })
      .from(areasNiveles)
      .innerJoin(areas, eq(areas.id, areasNiveles.id_area))
      .innerJoin(niveles, eq(niveles.codigo, areasNiveles.codigo_nivel))
      .where(and(area ? eq(areas.id, area.id) : undefined, nivel ? eq(niveles.codigo, nivel.codigo) : undefined))
      .orderBy(asc(areas.nombre), asc(niveles.orden)),
    // By unit, then added up per level in each level the unit is taught in (a shared unit counts in each, decision 0084).
    db
      .select({
        id: unidades.id,
        area: unidades.id_area,
        nivel: unidades.codigo_nivel,
        vigente: unidades.vigente,
        otros: otrosNivelesSql,
      })
      .from(unidades),
    db
      .select({
        unidad: oas.unidad,
        vigentes: numero(sql`count(*) filter (where ${oaVigenteSql})`),
        retirados: numero(sql`count(*) filter (where not ${oaVigenteSql})`),
      })
      .from(oas)
      .innerJoin(unidades, eq(unidades.id, oas.unidad))
      .groupBy(oas.unidad),
    db
      .select({ area: materiales.id_area, nivel: materiales.codigo_nivel, n: count() })
      .from(materiales)
      .groupBy(materiales.id_area, materiales.codigo_nivel),
  ]);
  const oasDe = new Map(porOas.map((f) => [f.unidad, f]));
  const u = new Map<string, { total: number; retiradas: number }>();
  const o = new Map<string, { vigentes: number; retirados: number }>();
  for (const unidad of porUnidades) {
    const suyos = oasDe.get(unidad.id);
    for (const nivel of [unidad.nivel, ...(unidad.otros ?? [])]) {
      const k = clave(unidad.area, nivel);
      const pu = u.get(k) ?? { total: 0, retiradas: 0 };
      u.set(k, { total: pu.total + 1, retiradas: pu.retiradas + (unidad.vigente ? 0 : 1) });
      const po = o.get(k) ?? { vigentes: 0, retirados: 0 };
      o.set(k, { vigentes: po.vigentes + (suyos?.vigentes ?? 0), retirados: po.retirados + (suyos?.retirados ?? 0) });
    }
  }
  const m = new Map(porMateriales.map((f) => [clave(f.area, f.nivel), f.n]));
  return {
    pares: pares.map((p) => {
      const k = clave(p.area.id, p.nivel.codigo);
      return {
        ...p,
        unidades: u.get(k)?.total ?? 0,
        unidades_retiradas: u.get(k)?.retiradas ?? 0,
        oas_vigentes: o.get(k)?.vigentes ?? 0,
        oas_retirados: o.get(k)?.retirados ?? 0,
        materiales: m.get(k) ?? 0,
      };
    }),
    oas: filtros.q ? await buscar(db, filtros.q, area?.id, nivel?.codigo) : [],
  };
}

async function buscar(db: Db, q: string, area: number | undefined, nivel: string | undefined) {
  const coincide = contienePalabras([oas.codigo, oas.descripcion], q);
  if (!coincide) return [];
  return db
    .select({
      id: oas.id,
      codigo: oas.codigo,
      descripcion: oas.descripcion,
      vigente: oas.vigente,
      area: { id: areas.id, codigo: areas.codigo, nombre: areas.nombre },
      nivel: { codigo: niveles.codigo, nombre: niveles.nombre, ciclo: niveles.ciclo },
      unidad: { id: unidades.id, codigo: unidades.codigo, nombre: unidades.nombre, vigente: unidades.vigente },
    })
    .from(oas)
    .innerJoin(unidades, eq(unidades.id, oas.unidad))
    .innerJoin(areas, eq(areas.id, unidades.id_area))
    .innerJoin(niveles, eq(niveles.codigo, unidades.codigo_nivel))
    .where(and(coincide, area ? eq(areas.id, area) : undefined, nivel ? unidadEnNivel(nivel) : undefined))
    .orderBy(asc(areas.nombre), asc(niveles.orden), asc(unidades.orden), asc(unidades.codigo), asc(oas.orden), asc(oas.codigo))
    .limit(BUSQUEDA_OAS_MAX);
}

/** A pair's units in order (retired ones included). */
export function unidadesDelPar(db: Lector, area: number, nivel: string) {
  return db
    .select({
      id: unidades.id,
      codigo: unidades.codigo,
      nombre: unidades.nombre,
      niveles: nombresDeNiveles,
      orden: unidades.orden,
      vigente: unidades.vigente,
    })
    .from(unidades)
    .where(and(eq(unidades.id_area, area), unidadEnNivel(nivel)))
    .orderBy(asc(unidades.orden), asc(unidades.codigo));
}

/** The OAs of these units, each unit's in order (retired ones included). */
export function oasDe(db: Lector, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: oas.id,
      codigo: oas.codigo,
      descripcion: oas.descripcion,
      orden: oas.orden,
      vigente: oas.vigente,
      fuente: oas.fuente,
      unidad: oas.unidad,
    })
    .from(oas)
    .where(inArray(oas.unidad, ids))
    .orderBy(asc(oas.unidad), asc(oas.orden), asc(oas.codigo));
}

/** The units given with their OAs and material counts, in the admin tree's shape. */
export async function arbolDe(
  db: Lector,
  lista: { id: number; codigo: string; nombre: string; niveles: string[]; vigente: boolean }[],
): Promise<Esquema<'UnidadCurriculoAdmin'>[]> {
  const ids = lista.map((u) => u.id);
  const objetivos = await oasDe(db, ids);
  const idsOas = objetivos.map((o) => o.id);
  const [porUnidad, porOa] = await Promise.all([
    ids.length === 0
      ? []
      : db
          .select({ clave: materiales.id_unidad, n: count() })
          .from(materiales)
          .where(inArray(materiales.id_unidad, ids))
          .groupBy(materiales.id_unidad),
    idsOas.length === 0
      ? []
      : db
          .select({ clave: materialesOas.id_oa, n: count() })
          .from(materialesOas)
          .where(inArray(materialesOas.id_oa, idsOas))
          .groupBy(materialesOas.id_oa),
  ]);
  const mu = new Map(porUnidad.map((f) => [f.clave, f.n]));
  const mo = new Map(porOa.map((f) => [f.clave, f.n]));
  return lista.map((u, i) => ({
    id: u.id,
    codigo: u.codigo,
    nombre: u.nombre,
    niveles: u.niveles,
    orden: i + 1,
    vigente: u.vigente,
    materiales: mu.get(u.id) ?? 0,
    oas: objetivos.filter((o) => o.unidad === u.id).map((o, j) => ({ ...o, orden: j + 1, materiales: mo.get(o.id) ?? 0 })),
  }));
}

/** GET /api/admin/curriculo/{area}/{nivel}/. */
export async function arbolDelPar(db: Db, area: string, nivel: string): Promise<Esquema<'ParCurriculoAdmin'>> {
  const par = await parDe(db, area, nivel);
  const lista = await unidadesDelPar(db, par.area.id, par.nivel.codigo);
  return { ...par, unidades: await arbolDe(db, lista) };
}

/**
 * The export's rows: every OA of the chosen pairs, retired ones included (an OA of a retired unit
 * as not in force), by area, level, unit order and OA order; positions from 1 among the rows.
 */
export async function filasExportadas(db: Db, filtro: { area?: string | undefined; nivel?: string | undefined }) {
  const area = filtro.area ? await areaDe(db, filtro.area) : undefined;
  const nivel = filtro.nivel ? await nivelDe(db, filtro.nivel) : undefined;
  const filas = await db
    .select({
      area: areas.codigo,
      nivel: niveles.codigo,
      id_unidad: unidades.id,
      unidad: unidades.nombre,
      oa: oas.codigo,
      descripcion: oas.descripcion,
      vigente: sql<boolean>`${oaVigenteSql}`,
      fuente: oas.fuente,
      otros: sql<string | null>`array_to_string(${otrosNivelesSql}, ' ')`,
    })
    .from(oas)
    .innerJoin(unidades, eq(unidades.id, oas.unidad))
    .innerJoin(areas, eq(areas.id, unidades.id_area))
    .innerJoin(niveles, eq(niveles.codigo, unidades.codigo_nivel))
    .where(and(area ? eq(areas.id, area.id) : undefined, nivel ? eq(niveles.codigo, nivel.codigo) : undefined))
    .orderBy(asc(areas.nombre), asc(niveles.orden), asc(unidades.orden), asc(unidades.codigo), asc(oas.orden), asc(oas.codigo));
  const posUnidad = new Map<number, number>();
  const unidadesDe = new Map<string, number>();
  const oasDeUnidad = new Map<number, number>();
  const salida: FilaCurriculo[] = [];
  for (const f of filas) {
    const par = `${f.area}:${f.nivel}`;
    if (!posUnidad.has(f.id_unidad)) {
      const n = (unidadesDe.get(par) ?? 0) + 1;
      unidadesDe.set(par, n);
      posUnidad.set(f.id_unidad, n);
    }
    const oaOrden = (oasDeUnidad.get(f.id_unidad) ?? 0) + 1;
    oasDeUnidad.set(f.id_unidad, oaOrden);
    salida.push({
      area: f.area,
      nivel: f.nivel,
      unidad: f.unidad,
      unidad_orden: posUnidad.get(f.id_unidad) ?? 1,
      oa: f.oa,
      descripcion: f.descripcion,
      oa_orden: oaOrden,
      vigente: Boolean(f.vigente),
      fuente: f.fuente,
      otros_niveles: f.otros ?? '',
    });
  }
  return { filas: salida, nombre: ['curriculo', area?.codigo, nivel?.codigo].filter(Boolean).join('-') };
}

/**
 * The curriculum map (issue 21): how many materials of the library are aligned to each level, unit
 * and OA of an area, for GET /api/bdocente/cobertura/ and /biblioteca-docente/mapa. Each number is
 * what the matching list shows the same person (hidden materials count for their author and
 * admins only, through `partesVisibles`): a level's is the list filtered by area and level, a unit's the
 * list filtered by unit, an OA's the list filtered by OA. A handful of grouped counts, never one
 * query per OA. Retired units and OAs (issue 30) are not on the map: it shows what new work can
 * be aligned to.
 */
import { and, asc, count, countDistinct, eq, inArray, type SQL } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { CoberturaInput } from '../../validation/biblioteca.ts';
import type { Db } from '../db/client.server.ts';
import type { Conteos } from '../db/conteos.server.ts';
import { areas, areasNiveles, materiales, materialesOas, niveles, oas, perfilAreas, unidades } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { Actor } from './actor.server.ts';
import { cacheDelCurriculo } from './catalogos.server.ts';
import { otrosNivelesSql, unidadEnNivel } from './curriculo/niveles.server.ts';
import { partesVisibles } from './recursos.server.ts';

export const AREA_NO_ENCONTRADA = 'No se encontró el área';

export type Cobertura = Esquema<'Cobertura'>;

type Filas<K> = { clave: K; n: number }[];

/** A count per key, 0 for a key with no row; rows of disjoint sets of materials add up. */
const conteos = <K>(...partes: Filas<K>[]) => {
  const mapa = new Map<K, number>();
  for (const f of partes.flat()) mapa.set(f.clave, (mapa.get(f.clave) ?? 0) + f.n);
  return (clave: K) => mapa.get(clave) ?? 0;
};

/**
 * The area's materials counted by level, unit and OA among those `visible` selects: the three
 * grouped counts of the map.
 */
function contarMateriales(db: Db, { area, nivel }: CoberturaInput, visible: SQL | undefined) {
  const delNivel = nivel ? unidadEnNivel(nivel) : undefined;
  return Promise.all([
    db
      .select({ clave: materiales.codigo_nivel, n: count() })
      .from(materiales)
      .where(and(eq(materiales.id_area, area), nivel ? eq(materiales.codigo_nivel, nivel) : undefined, visible))
      .groupBy(materiales.codigo_nivel),
    // By the material's recorded unit, whatever its area: the list's `id_unidad` filter is the unit alone.
    db
      .select({ clave: materiales.id_unidad, n: count() })
      .from(materiales)
      .innerJoin(unidades, eq(unidades.id, materiales.id_unidad))
      .where(and(eq(unidades.id_area, area), delNivel, visible))
      .groupBy(materiales.id_unidad),
    // By alignment: a material of another unit (or level) aligned to the OA counts, as on the OA's page.
    db
      .select({ clave: materialesOas.id_oa, n: countDistinct(materialesOas.id_material) })
      .from(materialesOas)
      .innerJoin(materiales, eq(materiales.id, materialesOas.id_material))
      .innerJoin(oas, eq(oas.id, materialesOas.id_oa))
      .innerJoin(unidades, eq(unidades.id, oas.unidad))
      .where(and(eq(unidades.id_area, area), delNivel, visible))
      .groupBy(materialesOas.id_oa),
  ]);
}

/**
 * The same for every material of the area, hidden ones too, read from the indexes alone (issue 36):
 * by level from (area, level, …), by unit from the units' index, by OA from the alignments' OA
 * index, none joined to the materials. At 100x, for the area with 70,000 materials, 56 ms instead
 * of the 0.6 s the joins to `materiales` took. An alignment is one row per material and OA, so a
 * count of rows is a count of materials.
 */
function contarTodos(db: Db, { area, nivel }: CoberturaInput) {
  const delNivel = nivel ? unidadEnNivel(nivel) : undefined;
  const unidadesDelArea = db
    .select({ id: unidades.id })
    .from(unidades)
    .where(and(eq(unidades.id_area, area), delNivel));
  const oasDelArea = db
    .select({ id: oas.id })
    .from(oas)
    .innerJoin(unidades, eq(unidades.id, oas.unidad))
    .where(and(eq(unidades.id_area, area), delNivel));
  return Promise.all([
    db
      .select({ clave: materiales.codigo_nivel, n: count() })
      .from(materiales)
      .where(and(eq(materiales.id_area, area), nivel ? eq(materiales.codigo_nivel, nivel) : undefined))
      .groupBy(materiales.codigo_nivel),
    db
      .select({ clave: materiales.id_unidad, n: count() })
      .from(materiales)
      .where(inArray(materiales.id_unidad, unidadesDelArea))
      .groupBy(materiales.id_unidad),
    db
      .select({ clave: materialesOas.id_oa, n: count() })
      .from(materialesOas)
      .where(inArray(materialesOas.id_oa, oasDelArea))
      .groupBy(materialesOas.id_oa),
  ]);
}

/** Counts of `todos` less those of `menos`, key by key (what is not hidden: all of them less the hidden ones). */
const restar = <T extends Filas<unknown>[]>(todos: T, menos: T): T =>
  todos.map((filas, i) => [...filas, ...(menos[i] ?? []).map((f) => ({ clave: f.clave, n: -f.n }))]) as T;

/**
 * What every reader sees of the area (`partesVisibles`' common part: nothing hidden), counted as
 * all of it less the hidden materials (few, found through `materiales_ocultos_idx`); an admin's,
 * all of it.
 */
async function contarVisibles(db: Db, input: CoberturaInput, admin: boolean) {
  const todos = contarTodos(db, input);
  if (admin) return todos;
  const [t, ocultos] = await Promise.all([todos, contarMateriales(db, input, eq(materiales.oculto, true))]);
  return restar(t, ocultos);
}

/** The area, its levels, its units in force and their OAs in force: what the map shows, before its counts. */
function estructura(db: Db, { area, nivel }: CoberturaInput) {
  const delNivel = nivel ? unidadEnNivel(nivel) : undefined;
  return Promise.all([
    db.select({ id: areas.id, codigo: areas.codigo, nombre: areas.nombre }).from(areas).where(eq(areas.id, area)),
    db
      .select({ codigo: niveles.codigo, nombre: niveles.nombre })
      .from(areasNiveles)
      .innerJoin(niveles, eq(niveles.codigo, areasNiveles.codigo_nivel))
      .where(and(eq(areasNiveles.id_area, area), nivel ? eq(niveles.codigo, nivel) : undefined))
      .orderBy(asc(niveles.orden)),
    db
      .select({ id: unidades.id, codigo: unidades.codigo, nombre: unidades.nombre, nivel: unidades.codigo_nivel, otros: otrosNivelesSql })
      .from(unidades)
      .where(and(eq(unidades.id_area, area), delNivel, eq(unidades.vigente, true)))
      .orderBy(asc(unidades.orden), asc(unidades.codigo)),
    db
      .select({ id: oas.id, codigo: oas.codigo, descripcion: oas.descripcion, unidad: oas.unidad })
      .from(oas)
      .innerJoin(unidades, eq(unidades.id, oas.unidad))
      .where(and(eq(unidades.id_area, area), delNivel, eq(oas.vigente, true)))
      .orderBy(asc(oas.orden), asc(oas.codigo)),
  ]);
}

type Estructura = Awaited<ReturnType<typeof estructura>>;

/**
 * The curriculum map of one database. The area's levels, units and OAs are kept until the
 * curriculum changes (the catalogues' read cache, cacheDelCurriculo):
 * an area's OAs are hundreds of rows with their texts, the same for every reader. The counts of
 * what every reader sees are kept per area and level while no material or alignment changes
 * (decision 0081); the reader's own hidden materials are counted on each request, when they have any.
 */
export function crearCobertura(db: Db, cuentas: Conteos, now: () => Date) {
  const estructuras = cacheDelCurriculo<Estructura>(db, now, 500);

  /** The area's levels, units and OAs with their counts; 404 when the area does not exist. */
  async function cobertura(actor: Actor, input: CoberturaInput): Promise<Cobertura> {
    const { area, nivel } = input;
    const partes = partesVisibles(actor, materiales);
    const version = await cuentas.version('materiales');
    const propios = async () =>
      partes && (await cuentas.tieneOcultos('materiales', version, actor.id)) ? contarMateriales(db, input, partes.propio) : [[], [], []];
    const [[[fila], filasNiveles, filasUnidades, filasOas], comunes, [propiosNivel, propiosUnidad, propiosOa]] = await Promise.all([
      estructuras.leer(`${area} ${nivel ?? ''}`, () => estructura(db, input)),
      cuentas.conVersion(version, `cobertura ${area} ${nivel ?? ''} ${partes ? 'comun' : 'todo'}`, () =>
        contarVisibles(db, input, !partes),
      ),
      propios(),
    ]);
    const [porNivel, porUnidad, porOa] = comunes;
    if (!fila) throw new ErrorDeDominio(404, AREA_NO_ENCONTRADA);
    const enNivel = (u: (typeof filasUnidades)[number], nivel: string) => u.nivel === nivel || (u.otros?.includes(nivel) ?? false);
    const [deNivel, deUnidad, deOa] = [conteos(porNivel, propiosNivel), conteos(porUnidad, propiosUnidad), conteos(porOa, propiosOa)];
    return {
      area: fila,
      niveles: filasNiveles.map((n) => ({
        ...n,
        n_materiales: deNivel(n.codigo),
        unidades: filasUnidades
          .filter((u) => enNivel(u, n.codigo))
          .map(({ nivel: _, otros: __, ...u }) => ({
            ...u,
            n_materiales: deUnidad(u.id),
            oas: filasOas.filter((o) => o.unidad === u.id).map(({ unidad: _, ...o }) => ({ ...o, n_materiales: deOa(o.id) })),
          })),
      })),
    };
  }

  return { cobertura, areasDelMapa: (actor: Actor) => areasDelMapa(db, actor) };
}

export interface AreaDelMapa {
  id: number;
  nombre: string;
  /** Whether the curriculum seeded units for it (most areas have none yet). */
  conUnidades: boolean;
}

/**
 * Every area, by name, each saying whether it has units; and the map's default: the person's first
 * profile area that has units, else the first area that has them (undefined when none has).
 */
async function areasDelMapa(db: Db, actor: Actor): Promise<{ areas: AreaDelMapa[]; predeterminada: number | undefined }> {
  const [todas, conUnidades, delPerfil] = await Promise.all([
    db.select({ id: areas.id, nombre: areas.nombre }).from(areas).orderBy(asc(areas.nombre)),
    db.selectDistinct({ id: unidades.id_area }).from(unidades).where(eq(unidades.vigente, true)),
    db.select({ id: perfilAreas.id_area }).from(perfilAreas).where(eq(perfilAreas.id_usuario, actor.id)),
  ]);
  const tienen = new Set(conUnidades.map((u) => u.id));
  const mias = new Set(delPerfil.map((p) => p.id));
  const lista = todas.map((a) => ({ ...a, conUnidades: tienen.has(a.id) }));
  const predeterminada = (lista.find((a) => a.conUnidades && mias.has(a.id)) ?? lista.find((a) => a.conUnidades))?.id;
  return { areas: lista, predeterminada };
}

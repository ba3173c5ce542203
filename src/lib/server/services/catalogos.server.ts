/**
 * Curriculum lookups and other catalogues. The list pages ask for three of them on every render,
 * so answers are kept: the curriculum's (areas, levels, units, OAs) in a read cache over its
 * tables (db/cache.server.ts), read again as soon as this process writes one of them (the admin
 * console, issue 30) and after at most 30 seconds when several servers share the database; the
 * methodologies and material types, seeded at start-up and never written while the server runs,
 * once. Schools grow with every invitation naming a new one: read each time.
 */
import { and, asc, eq, exists } from 'drizzle-orm';
import { cacheDeLecturas } from '../db/cache.server.ts';
import type { Db } from '../db/client.server.ts';
import {
  areas,
  areasNiveles,
  colegios,
  metodologias,
  niveles,
  oas,
  tiposMaterial,
  unidades,
  unidadesNiveles,
} from '../db/schema.server.ts';
import { mismoNombre } from '../db/search.server.ts';
import { unidadEnNivel } from './curriculo/niveles.server.ts';

/** The curriculum area with this name (case and accents aside), or undefined. */
export async function areaPorNombre(db: Db, nombre: string): Promise<number | undefined> {
  const [row] = await db.select({ id: areas.id }).from(areas).where(mismoNombre(areas.nombre, nombre)).orderBy(asc(areas.id));
  return row?.id;
}

/** The curriculum level with this name (case and accents aside, as areaPorNombre), or undefined. */
export async function nivelPorNombre(db: Db, nombre: string): Promise<string | undefined> {
  const [row] = await db
    .select({ codigo: niveles.codigo })
    .from(niveles)
    .where(mismoNombre(niveles.nombre, nombre))
    .orderBy(asc(niveles.orden));
  return row?.codigo;
}

/**
 * The answer of `leer` for `clave`, read once. Frozen, because every caller shares the one array.
 * A failed read and an empty answer are not kept: the keys come from query strings, and only the
 * curriculum's own ids and codes (a bounded set) answer rows.
 */
function memoria() {
  const guardadas = new Map<string, Promise<unknown>>();
  return <T>(clave: string, leer: () => PromiseLike<T[]>): Promise<T[]> => {
    let answer = guardadas.get(clave) as Promise<T[]> | undefined;
    if (!answer) {
      const leyendo = Promise.resolve(leer()).then((rows) => {
        if (rows.length === 0) guardadas.delete(clave);
        return Object.freeze(rows) as T[];
      });
      leyendo.catch(() => guardadas.delete(clave));
      guardadas.set(clave, leyendo);
      answer = leyendo;
    }
    return answer;
  };
}

/**
 * A read cache of answers read from the curriculum's tables (areas, levels, units, OAs): read again
 * as soon as this process writes one of them, within 30 s of another server's write, and at most
 * an hour old otherwise; up to `max` answers.
 */
export const cacheDelCurriculo = <T>(db: Db, now: () => Date, max: number) =>
  cacheDeLecturas<T>(db, {
    tablas: [areas, areasNiveles, niveles, unidades, unidadesNiveles, oas],
    segundos: 30,
    maxSegundos: 3600,
    max,
    now,
  });

export function createCatalogosService(db: Db, now: () => Date = () => new Date()) {
  const leidas = memoria();
  const curriculo = cacheDelCurriculo<readonly unknown[]>(db, now, 5000);
  /** A curriculum answer, frozen because every caller shares the one array. */
  const delCurriculo = <T>(clave: string, leer: () => PromiseLike<T[]>) =>
    curriculo.leer(clave, async () => Object.freeze(await leer())) as Promise<T[]>;
  return {
    areas: (nivel?: string) => delCurriculo(`areas:${nivel ?? ''}`, () => areasDe(db, nivel)),
    niveles: (area?: number) => delCurriculo(`niveles:${area ?? ''}`, () => nivelesDe(db, area)),
    /** The pair's units in force (issue 30: a retired one is out of the forms and filters), in the pair's order. */
    unidades: (area: number, nivel: string) =>
      delCurriculo(`unidades:${area}:${nivel}`, () =>
        db
          .select({ id: unidades.id, codigo: unidades.codigo, nombre: unidades.nombre })
          .from(unidades)
          .where(and(eq(unidades.id_area, area), unidadEnNivel(nivel), eq(unidades.vigente, true)))
          .orderBy(asc(unidades.orden), asc(unidades.codigo)),
      ),
    /** The unit's OAs in force, in the unit's order; none for a retired unit. */
    oas: (unidad: number) =>
      delCurriculo(`oas:${unidad}`, () =>
        db
          .select({ id: oas.id, codigo: oas.codigo, descripcion: oas.descripcion, unidad: oas.unidad, vigente: oas.vigente })
          .from(oas)
          .innerJoin(unidades, eq(unidades.id, oas.unidad))
          .where(and(eq(oas.unidad, unidad), eq(oas.vigente, true), eq(unidades.vigente, true)))
          .orderBy(asc(oas.orden), asc(oas.codigo)),
      ),
    metodologias: () => leidas('metodologias', () => db.select().from(metodologias).orderBy(asc(metodologias.nombre))),
    tiposMaterial: () => leidas('tipos', () => db.select().from(tiposMaterial).orderBy(asc(tiposMaterial.nombre))),
    colegios: () => db.select().from(colegios).orderBy(asc(colegios.nombre)),
  };
}

function areasDe(db: Db, nivel: string | undefined) {
  const taught = nivel
    ? exists(
        db
          .select()
          .from(areasNiveles)
          .where(and(eq(areasNiveles.id_area, areas.id), eq(areasNiveles.codigo_nivel, nivel))),
      )
    : undefined;
  return db.select({ id: areas.id, codigo: areas.codigo, nombre: areas.nombre }).from(areas).where(taught).orderBy(asc(areas.nombre));
}

function nivelesDe(db: Db, area: number | undefined) {
  const taught = area
    ? exists(
        db
          .select()
          .from(areasNiveles)
          .where(and(eq(areasNiveles.codigo_nivel, niveles.codigo), eq(areasNiveles.id_area, area))),
      )
    : undefined;
  return db
    .select({ codigo: niveles.codigo, nombre: niveles.nombre, ciclo: niveles.ciclo })
    .from(niveles)
    .where(taught)
    .orderBy(asc(niveles.orden));
}

/** Curriculum lookups and other catalogues (read-only, seeded). */
import { and, asc, eq, exists } from 'drizzle-orm';
import type { Db } from '../db/client.server.ts';
import { areas, areasNiveles, colegios, metodologias, niveles, oas, tiposMaterial, unidades } from '../db/schema.server.ts';
import { mismoNombre } from '../db/search.server.ts';

/** The curriculum area with this name (case and accents aside), or undefined. */
export async function areaPorNombre(db: Db, nombre: string): Promise<number | undefined> {
  const [row] = await db.select({ id: areas.id }).from(areas).where(mismoNombre(areas.nombre, nombre)).orderBy(asc(areas.id));
  return row?.id;
}

export function createCatalogosService(db: Db) {
  return {
    areas(nivel?: string) {
      const taught = nivel
        ? exists(
            db
              .select()
              .from(areasNiveles)
              .where(and(eq(areasNiveles.id_area, areas.id), eq(areasNiveles.codigo_nivel, nivel))),
          )
        : undefined;
      return db.select({ id: areas.id, codigo: areas.codigo, nombre: areas.nombre }).from(areas).where(taught).orderBy(asc(areas.nombre));
    },
    niveles(area?: number) {
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
    },
    unidades(area: number, nivel: string) {
      return db
        .select({ id: unidades.id, codigo: unidades.codigo, nombre: unidades.nombre })
        .from(unidades)
        .where(and(eq(unidades.id_area, area), eq(unidades.codigo_nivel, nivel)))
        .orderBy(asc(unidades.codigo));
    },
    oas(unidad: number) {
      return db
        .select({ id: oas.id, codigo: oas.codigo, descripcion: oas.descripcion, unidad: oas.unidad })
        .from(oas)
        .where(eq(oas.unidad, unidad))
        .orderBy(asc(oas.codigo));
    },
    metodologias: () => db.select().from(metodologias).orderBy(asc(metodologias.nombre)),
    tiposMaterial: () => db.select().from(tiposMaterial).orderBy(asc(tiposMaterial.nombre)),
    colegios: () => db.select().from(colegios).orderBy(asc(colegios.nombre)),
  };
}

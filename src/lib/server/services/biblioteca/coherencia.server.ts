/**
 * Whether a material's choices fit the curriculum, checked on upload and on every edit.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { MaterialInput } from '../../../validation/biblioteca.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, niveles, oas, tiposMaterial, unidades } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { unidadEnNivel } from '../curriculo/niveles.server.ts';
import { retiradosNuevos } from '../curriculo.server.ts';

/**
 * The choices must fit together: the unit is of the chosen area and level, every OA is of a unit
 * of that area and level (a teacher may pick OAs from several units), the type exists.
 */
export async function coherencia(db: Db, input: MaterialInput, yaTiene?: { id_unidad: number; oas: number[] }) {
  const errors: Record<string, string[]> = {};
  const [[area], [nivel], [unidad], [tipo], objetivos] = await Promise.all([
    db.select({ id: areas.id }).from(areas).where(eq(areas.id, input.id_area)),
    db.select({ codigo: niveles.codigo }).from(niveles).where(eq(niveles.codigo, input.id_nivel)),
    db
      .select({ id: unidades.id })
      .from(unidades)
      .where(and(eq(unidades.id, input.id_unidad), eq(unidades.id_area, input.id_area), unidadEnNivel(input.id_nivel))),
    db.select({ id: tiposMaterial.id }).from(tiposMaterial).where(eq(tiposMaterial.id, input.tipo_material_docente)),
    db
      .select({ id: oas.id })
      .from(oas)
      .innerJoin(unidades, eq(unidades.id, oas.unidad))
      .where(and(inArray(oas.id, input.oas), eq(unidades.id_area, input.id_area), unidadEnNivel(input.id_nivel))),
  ]);
  if (!area) errors.id_area = ['Debe ingresar una area'];
  if (!nivel) errors.id_nivel = ['Debe ingresar un nivel'];
  if (!unidad) errors.id_unidad = ['Debe ingresar una unidad'];
  if (objetivos.length !== input.oas.length) errors.oas = ['Los OA elegidos no corresponden a la asignatura y el nivel'];
  if (!tipo) errors.tipo_material_docente = ['Debe especificar el tipo de material docente'];
  // Retired units and OAs are out of new work; a material that already has one keeps it (issue 30).
  const retirados = await retiradosNuevos(db, input, yaTiene);
  if (retirados.unidad && !errors.id_unidad) errors.id_unidad = [retirados.unidad];
  if (retirados.oas && !errors.oas) errors.oas = [retirados.oas];
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new ErrorDeDominio(400, first, { errors });
}

/** How /admin/curriculo groups the curriculum's pairs under their area (issue 30). */
import type { components } from '../../../lib/api/schema';

type ParResumen = components['schemas']['ParCurriculoResumen'];

interface Grupo {
  area: ParResumen['area'];
  pares: ParResumen[];
  /** The area's OAs in force, every level together. */
  oasVigentes: number;
}

/** The pairs under their area, in the order the service gives them (area name, then level). */
export function agruparPares(pares: readonly ParResumen[]): Grupo[] {
  const grupos = new Map<number, Grupo>();
  for (const par of pares) {
    const grupo = grupos.get(par.area.id) ?? { area: par.area, pares: [], oasVigentes: 0 };
    grupo.pares.push(par);
    grupo.oasVigentes += par.oas_vigentes;
    grupos.set(par.area.id, grupo);
  }
  return [...grupos.values()];
}

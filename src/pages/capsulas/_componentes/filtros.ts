/** What the capsule pages derive from the list's query and the catalogues (for the filters and the forms). */
import type { z } from 'zod';
import type { createCatalogosService } from '../../../lib/server/services/catalogos.server.ts';
import type { busquedaCapsulasSchema } from '../../../lib/validation/capsulas.ts';

type Busqueda = z.infer<typeof busquedaCapsulasSchema>;
type CatalogosService = ReturnType<typeof createCatalogosService>;

/** 'Resultados' instead of 'Novedades' once something narrows the list (order and size do not). */
export const buscando = (f: Busqueda) => Boolean(f.titulo || f.area || f.metodologia || f.nivel);

/** Levels grouped by cycle (Parvularia, primer ciclo…), in curriculum order, for <optgroup>s. */
export function nivelesPorCiclo<N extends { ciclo: string }>(niveles: readonly N[]): [string, N[]][] {
  const grupos = new Map<string, N[]>();
  for (const n of niveles) grupos.set(n.ciclo, [...(grupos.get(n.ciclo) ?? []), n]);
  return [...grupos];
}

/** The choices of the upload and edit forms, as the form island takes them. */
export async function opcionesFormulario(catalogos: CatalogosService) {
  const [areas, metodologias, niveles] = await Promise.all([catalogos.areas(), catalogos.metodologias(), catalogos.niveles()]);
  return {
    areas: areas.map((a) => ({ id: a.id, nombre: a.nombre })),
    metodologias: metodologias.map((m) => ({ id: m.id, nombre: m.nombre })),
    niveles: nivelesPorCiclo(niveles).map(([ciclo, grupo]): [string, { codigo: string; nombre: string }[]] => [
      ciclo,
      grupo.map((n) => ({ codigo: n.codigo, nombre: n.nombre })),
    ]),
  };
}

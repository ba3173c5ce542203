/**
 * The upload form's hint of where the curriculum is thin (issue 21): the OAs of the chosen area and
 * level that have no material yet, from GET /api/bdocente/cobertura/. Only a hint: the form never
 * waits for it, and a failed call just leaves the OAs unmarked.
 */
import { useEffect, useState } from 'react';
import { api } from '../../lib/api/client';

const VACIO = '-1';

/** The ids of the OAs with no material in that area and level, or null when the call failed. */
export async function oasSinMateriales(area: number, nivel: string): Promise<Set<number> | null> {
  try {
    const { data } = await api.GET('/api/bdocente/cobertura/', { params: { query: { area, nivel } } });
    if (!data) return null;
    const oas = data.niveles.flatMap((n) => n.unidades.flatMap((u) => u.oas));
    return new Set(oas.filter((o) => o.n_materiales === 0).map((o) => o.id));
  } catch {
    return null;
  }
}

/** The OAs to mark for the area and level chosen in the form (empty until both are chosen, or when the call fails). */
export function useOasSinMateriales(area: string, nivel: string): ReadonlySet<number> {
  const [sinMateriales, setSinMateriales] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    setSinMateriales(new Set());
    if (area === VACIO || nivel === VACIO) return;
    let vigente = true;
    void oasSinMateriales(Number(area), nivel).then((ids) => {
      if (vigente) setSinMateriales(ids ?? new Set());
    });
    return () => {
      vigente = false;
    };
  }, [area, nivel]);
  return sinMateriales;
}

/** The map's level view, at its 'Sin materiales' list. */
export const hrefSinMateriales = (area: string, nivel: string) =>
  `/biblioteca-docente/mapa?${new URLSearchParams({ area, nivel })}#sin-materiales`;

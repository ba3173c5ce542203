/**
 * The curriculum cascade's calls (docs/SPEC.md sections 4 and 7): the units of a level and area, the
 * OAs of a unit. Shared by the upload form and the list's filters. They answer null when the call
 * failed (the caller says so), never throw.
 */
import { api } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type Unidad = components['schemas']['Unidad'];
export type OA = components['schemas']['OA'];

export async function unidadesDe(area: number, nivel: string): Promise<Unidad[] | null> {
  try {
    const { data } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area, nivel } } });
    return data ?? null;
  } catch {
    return null;
  }
}

export async function oasDe(unidad: number): Promise<OA[] | null> {
  try {
    const { data } = await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad } } });
    return data ?? null;
  } catch {
    return null;
  }
}

/**
 * The curriculum map's rules (issue 21): the heat scale's buckets and the links of its cells, shared
 * by the map page and its tests. Five buckets, so a cell's colour says at a glance whether a unit
 * is empty, thin or well served; the number is always in the cell too (colour is never the only cue).
 */

export interface Tramo {
  /** 0 to 4: the CSS class `tramo-{n}`. */
  clase: `tramo-${0 | 1 | 2 | 3 | 4}`;
  desde: number;
  /** Inclusive; null for the last bucket. */
  hasta: number | null;
  /** The legend's words. */
  texto: string;
}

export const TRAMOS: readonly Tramo[] = [
  { clase: 'tramo-0', desde: 0, hasta: 0, texto: 'Sin materiales' },
  { clase: 'tramo-1', desde: 1, hasta: 2, texto: '1 a 2 materiales' },
  { clase: 'tramo-2', desde: 3, hasta: 5, texto: '3 a 5 materiales' },
  { clase: 'tramo-3', desde: 6, hasta: 9, texto: '6 a 9 materiales' },
  { clase: 'tramo-4', desde: 10, hasta: null, texto: '10 o más materiales' },
];

/** The bucket of a count. */
export function tramoDe(n: number): Tramo {
  return TRAMOS.findLast((t) => n >= t.desde) ?? (TRAMOS[0] as Tramo);
}

export const materiales = (n: number) => (n === 1 ? '1 material' : `${n} materiales`);

const consulta = (valores: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(valores).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();

/** The map of an area, or one of its levels opened (`#sin-materiales` to land on the gaps). */
export const hrefMapa = (area: number, nivel?: string, ancla = '') =>
  `/biblioteca-docente/mapa?${consulta(nivel ? { area, nivel } : { area })}${ancla}`;

/** The library list with the curriculum filters of a cell set. */
export const hrefLista = (f: { id_area: number; id_nivel: string; id_unidad?: number; oa?: number }) =>
  `/biblioteca-docente/?${consulta(f)}`;

/** The upload form, ready for the curriculum chosen so far (an OA, or only a level and area…). */
export function hrefSubir(f: {
  id_area?: number | undefined;
  id_nivel?: string | undefined;
  id_unidad?: number | undefined;
  oa?: number | undefined;
}) {
  const elegidos = consulta(f);
  return elegidos ? `/biblioteca-docente/subir?${elegidos}` : '/biblioteca-docente/subir';
}

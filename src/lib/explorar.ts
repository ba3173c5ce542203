/**
 * The public pages' addresses (issue 34): /explorar/{capsulas|materiales|manuales}/{id}/{slug},
 * the slug from the title (only for people and search engines: the id alone finds the item).
 */
import { esAbierta } from './licencias.ts';

export type TipoPublico = 'capsula' | 'material' | 'manual';

export const SECCION_PUBLICA: Record<TipoPublico, string> = { capsula: 'capsulas', material: 'materiales', manual: 'manuales' };

/** 'Guía de números enteros' → 'guia-de-numeros-enteros' (at most 80 characters). */
export function slug(titulo: string): string {
  return titulo
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}

export function rutaPublica(tipo: TipoPublico, id: number, titulo: string): string {
  const s = slug(titulo);
  return `/explorar/${SECCION_PUBLICA[tipo]}/${id}${s ? `/${s}` : ''}`;
}

/** The public page of an item its author made public, for the signed-in detail pages (the page itself checks the rest). */
export function paginaPublicaDe(
  tipo: TipoPublico,
  item: { id: number; titulo: string; licencia: string; visibilidad: string; oculto: boolean },
) {
  return item.visibilidad === 'publico' && esAbierta(item.licencia) && !item.oculto ? rutaPublica(tipo, item.id, item.titulo) : undefined;
}

/**
 * What an item's public page loads (issue 34): the item if it is public now, else nothing (the
 * page answers 404 at once when an item is private, hidden, retired or gone); and the canonical
 * path, to which a page opened with another slug redirects.
 */
import { rutaPublica, type TipoPublico } from '../../../lib/explorar.ts';
import { getRuntime } from '../../../lib/server/runtime.server.ts';
import { esId, numeroDe } from '../../../lib/validation/campos.ts';
import { capsulaPublica, type ItemPublico, manualPublico, materialPublico } from './publica.ts';

export async function cargarPublico(tipo: TipoPublico, idTexto: string | undefined): Promise<ItemPublico | null> {
  const id = numeroDe(idTexto);
  if (!esId(id)) return null;
  const { publicos } = getRuntime().api.services;
  if (tipo === 'material') {
    const m = await publicos.material(id);
    return m ? materialPublico(m) : null;
  }
  if (tipo === 'manual') {
    const m = await publicos.manual(id);
    return m ? manualPublico(m) : null;
  }
  const c = await publicos.capsula(id);
  return c ? capsulaPublica(c) : null;
}

/** The path the page should be at, or null when it already is there. */
export function otraRuta(item: ItemPublico, pathname: string): string | null {
  const ruta = rutaPublica(item.tipo, item.id, item.titulo);
  return decodeURI(pathname).replace(/\/$/, '') === ruta ? null : ruta;
}

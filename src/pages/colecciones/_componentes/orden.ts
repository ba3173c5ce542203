/**
 * The items of the collection edit form (issue 35) in their new order: each row sends `item` and
 * `nota` (in the page's order), `quitar` names the ones to remove, and a 'Subir'/'Bajar' button
 * sends `mover` as 'id:-1' or 'id:1'. Without any `item` field (an empty form) the items are left
 * as they are (undefined).
 */
export function ordenEditado(datos: URLSearchParams): { id: number; nota: string }[] | undefined {
  const ids = datos.getAll('item');
  if (ids.length === 0) return undefined;
  const notas = datos.getAll('nota');
  const quitar = new Set(datos.getAll('quitar'));
  const items = ids.map((id, i) => ({ id: Number(id), nota: notas[i] ?? '' }));
  const [movido, paso] = (datos.get('mover') ?? '').split(':');
  const desde = items.findIndex((i) => String(i.id) === movido);
  const hasta = desde + Number(paso);
  if (desde >= 0 && (paso === '1' || paso === '-1') && hasta >= 0 && hasta < items.length) {
    const [item] = items.splice(desde, 1);
    if (item) items.splice(hasta, 0, item);
  }
  return items.filter((i) => !quitar.has(String(i.id)));
}

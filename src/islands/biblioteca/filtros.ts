/**
 * The library list's curriculum filters, live (a plain script, no React): the units of the chosen
 * level and area, then the OAs of the chosen unit. Changing the level or the area clears the unit
 * and the OA; changing the unit clears the OA (docs/SPEC.md section 4). Without this script the server
 * renders the same options from the URL after each Buscar. The page loads this module only when
 * a curriculum field is first touched, which keeps the API client off a list that is only read.
 */
import { truncar } from '../../lib/format';
import { oasDe, unidadesDe } from './curriculo';

type CampoCurriculo = 'id_nivel' | 'id_area' | 'id_unidad';

/** One placeholder option ('-1' means no filter); the select stays off until there is a choice. */
function vaciar(select: HTMLSelectElement, texto: string): void {
  select.replaceChildren(new Option(texto, '-1'));
  select.disabled = true;
}

function llenar(select: HTMLSelectElement, placeholder: string, opciones: [number, string][]): void {
  select.replaceChildren(new Option(placeholder, '-1'), ...opciones.map(([valor, texto]) => new Option(texto, String(valor))));
  select.disabled = false;
}

/** Only the latest change fills the options (an earlier, slower answer is dropped). */
let turno = 0;

export async function alCambiar(form: HTMLFormElement, campo: CampoCurriculo): Promise<void> {
  const select = (id: string) => form.querySelector<HTMLSelectElement>(`select#${id}`);
  const [nivel, area, unidad, oa] = [select('id_nivel'), select('id_area'), select('id_unidad'), select('oa')];
  if (!nivel || !area || !unidad || !oa) return;
  const mio = ++turno;
  vaciar(oa, 'Elige una unidad');

  if (campo === 'id_unidad') {
    if (unidad.value === '-1') return;
    vaciar(oa, 'Cargando OA…');
    const lista = await oasDe(Number(unidad.value));
    if (mio !== turno) return;
    if (lista === null) return vaciar(oa, 'No se pudieron cargar los OA');
    return llenar(
      oa,
      'Todos',
      lista.map((o) => [o.id, `${o.codigo} · ${truncar(o.descripcion, 60)}`]),
    );
  }

  if (nivel.value === '-1' || area.value === '-1') return vaciar(unidad, 'Elige nivel y área');
  vaciar(unidad, 'Cargando unidades…');
  const lista = await unidadesDe(Number(area.value), nivel.value);
  if (mio !== turno) return;
  if (lista === null) return vaciar(unidad, 'No se pudieron cargar las unidades');
  if (lista.length === 0) return vaciar(unidad, 'Sin unidades');
  llenar(
    unidad,
    'Todas',
    lista.map((u) => [u.id, u.nombre]),
  );
}

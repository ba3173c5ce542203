/**
 * The statistics of /admin/estadisticas as tables (issue 16): one per chart, with Spanish column
 * names. The page's data tables and the CSV downloads come from here, so both say the same.
 */
import type { components } from '../../../lib/api/schema';

export type Estadisticas = components['schemas']['EstadisticasAdmin'];

export interface TablaDatos {
  titulo: string;
  columnas: string[];
  filas: (string | number)[][];
}

export const SERIES = ['docentes-activos', 'subidas', 'visitas', 'mas-vistos', 'materiales'] as const;
export type Serie = (typeof SERIES)[number];

export const NOMBRES_SECCION = {
  capsulas: 'Cápsulas',
  biblioteca: 'Biblioteca',
  manuales: 'Manuales',
  foro: 'Foro',
} as const;

const TIPOS = { capsula: 'Cápsula', material: 'Material', manual: 'Manual' } as const;

const diaMes = new Intl.DateTimeFormat('es-CL', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const mesAno = new Intl.DateTimeFormat('es-CL', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** '17 nov' for the week starting on Monday 2026-11-17. */
export const etiquetaSemana = (semana: string) => diaMes.format(new Date(`${semana}T00:00:00Z`)).replace('.', '');
/** 'nov 2026' for '2026-11'. */
export const etiquetaMes = (mes: string) => mesAno.format(new Date(`${mes}-01T00:00:00Z`)).replace('.', '');

export function tablaDe(serie: Serie, e: Estadisticas): TablaDatos {
  switch (serie) {
    case 'docentes-activos':
      return {
        titulo: 'Docentes activos por semana',
        columnas: ['Semana (lunes)', 'Docentes que ingresaron'],
        filas: e.activos_por_semana.map((s) => [s.semana, s.docentes]),
      };
    case 'subidas':
      return {
        titulo: 'Publicaciones por sección y mes',
        columnas: ['Mes', 'Cápsulas', 'Materiales', 'Manuales'],
        filas: e.subidas_por_mes.map((m) => [m.mes, m.capsulas, m.materiales, m.manuales]),
      };
    case 'visitas':
      return {
        titulo: 'Visitas por sección',
        columnas: ['Sección', 'Visitas'],
        filas: e.visitas_por_seccion.map((v) => [NOMBRES_SECCION[v.seccion], v.visitas]),
      };
    case 'mas-vistos':
      return {
        titulo: 'Los diez más vistos',
        columnas: ['Posición', 'Título', 'Tipo', 'Visitas'],
        filas: e.mas_vistos.map((m, i) => [i + 1, m.titulo, TIPOS[m.tipo], m.visitas]),
      };
    case 'materiales': {
      const { areas, niveles } = e.materiales_por_area_nivel;
      const total = totalesMateriales(e);
      return {
        titulo: 'Materiales por área y nivel',
        columnas: ['Área', ...niveles],
        filas: areas.map((a) => [a, ...niveles.map((n) => total(a, n))]),
      };
    }
  }
}

/** The count of one area and level (0 when the service sent no cell for it). */
export function totalesMateriales(e: Estadisticas): (area: string, nivel: string) => number {
  const celdas = new Map(e.materiales_por_area_nivel.celdas.map((c) => [`${c.area}\u0000${c.nivel}`, c.total]));
  return (area, nivel) => celdas.get(`${area}\u0000${nivel}`) ?? 0;
}

/**
 * RFC 4180 text with ';' between fields and a byte-order mark: what Excel in es-CL opens in
 * columns with its accents intact. A field that starts like a formula is quoted and prefixed
 * with an apostrophe, so a title never runs as one.
 */
export function aCsv(tabla: TablaDatos): string {
  const campo = (v: string | number) => {
    if (typeof v === 'number') return String(v);
    const seguro = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[";\r\n']/.test(seguro) ? `"${seguro.replace(/"/g, '""')}"` : seguro;
  };
  return `\uFEFF${[tabla.columnas, ...tabla.filas].map((fila) => fila.map(campo).join(';')).join('\r\n')}\r\n`;
}

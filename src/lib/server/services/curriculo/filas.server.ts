/**
 * The curriculum import's file read into rows (issue 30): CSV (the roster's reader, commas or
 * semicolons) or JSON (an array of row objects), the header checked, the row limit held before
 * any row is looked at, and each row's cells checked on their own (the database is asked later,
 * in importar.server.ts). Every problem of a row is one Spanish message with its line.
 */
import {
  COLUMNAS_CURRICULO,
  COLUMNAS_REQUERIDAS,
  type ColumnaCurriculo,
  CURRICULO_MAX_FILAS,
  DEMASIADAS_FILAS,
  ENUNCIADO_MAX,
  ENUNCIADO_REQUERIDO,
  FUENTE_MAX,
  leerVigente,
  NOMBRE_UNIDAD_MAX,
  NOMBRE_UNIDAD_REQUERIDO,
  normalizarCodigo,
} from '../../../validation/curriculo.ts';
import { textoPermitido } from '../../../validation/texto.ts';
import { parseCsv } from '../../cli/csv.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';

export const CODIFICACION_ROTA =
  'La línea tiene caracteres no válidos: guarda el archivo como CSV UTF-8 o Latin-1 (Windows-1252) y vuelve a subirlo';
export const ARCHIVO_VACIO = 'El archivo está vacío: debe tener un encabezado y al menos una fila';

/** One row as the file gives it: its line and its cells by column (absent columns undefined). */
export interface FilaLeida {
  linea: number;
  celdas: Partial<Record<ColumnaCurriculo, unknown>>;
}

/** A row whose cells are well formed, before the database is asked. */
export interface FilaRevisada {
  linea: number;
  area: string;
  nivel: string;
  unidad: string;
  unidad_orden: number | undefined;
  oa: string;
  descripcion: string;
  oa_orden: number | undefined;
  vigente: boolean;
  /** Undefined when the file has no `fuente` column: the stored source stays. */
  fuente: string | null | undefined;
  /** The unit's other levels, as codes (decision 0084); undefined when the file has no `otros_niveles` column: the stored ones stay. */
  otros_niveles: string[] | undefined;
}

export interface LineaConError {
  linea: number;
  mensaje: string;
}

/** Header names as people write them: 'Área', ' OA ', 'Unidad orden'. */
const columna = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s-]+/g, '_');

const demasiadas = () => new ErrorDeDominio(400, DEMASIADAS_FILAS);

function desdeCsv(texto: string): FilaLeida[] {
  // A cheap count first: a file of 50 000 lines is refused before it is parsed into rows.
  let saltos = 0;
  for (let i = texto.indexOf('\n'); i !== -1; i = texto.indexOf('\n', i + 1)) {
    saltos++;
    if (saltos > 4 * CURRICULO_MAX_FILAS) throw demasiadas();
  }
  const filas = parseCsv(texto);
  const [encabezado, ...datos] = filas;
  if (!encabezado || datos.length === 0) throw new ErrorDeDominio(400, ARCHIVO_VACIO);
  if (datos.length > CURRICULO_MAX_FILAS) throw demasiadas();
  const columnas = encabezado.values.map(columna);
  const faltan = COLUMNAS_REQUERIDAS.filter((c) => !columnas.includes(c));
  if (faltan.length > 0) {
    throw new ErrorDeDominio(
      400,
      `Faltan columnas en el encabezado: ${faltan.join(', ')}. Se esperan ${COLUMNAS_CURRICULO.join(', ')} (las de orden, vigente y fuente son opcionales).`,
    );
  }
  return datos.map((fila) => {
    const celdas: FilaLeida['celdas'] = {};
    columnas.forEach((c, i) => {
      if ((COLUMNAS_CURRICULO as readonly string[]).includes(c) && !(c in celdas)) celdas[c as ColumnaCurriculo] = fila.values[i] ?? '';
    });
    return { linea: fila.line, celdas };
  });
}

function desdeJson(texto: string): FilaLeida[] {
  let datos: unknown;
  try {
    datos = JSON.parse(texto.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ErrorDeDominio(
      400,
      `El archivo JSON no es válido: ${error instanceof SyntaxError ? 'revisa su sintaxis' : 'no se pudo leer'}`,
    );
  }
  if (!Array.isArray(datos)) throw new ErrorDeDominio(400, 'El archivo JSON no es válido: debe ser una lista de filas');
  if (datos.length === 0) throw new ErrorDeDominio(400, 'El archivo está vacío: debe tener al menos una fila');
  if (datos.length > CURRICULO_MAX_FILAS) throw demasiadas();
  return datos.map((dato, i) => {
    const celdas: FilaLeida['celdas'] = {};
    if (typeof dato === 'object' && dato !== null && !Array.isArray(dato)) {
      for (const [k, v] of Object.entries(dato)) {
        const c = columna(k);
        if ((COLUMNAS_CURRICULO as readonly string[]).includes(c)) celdas[c as ColumnaCurriculo] = v;
      }
    } else celdas.area = Symbol.for('no-es-objeto');
    return { linea: i + 1, celdas };
  });
}

/** The file's rows: JSON when named .json or when it starts with '['; CSV otherwise. */
export function leerFilas(texto: string, json: boolean): { filas: FilaLeida[]; json: boolean } {
  const esJson = json || /^\uFEFF?\s*\[/.test(texto);
  return { filas: esJson ? desdeJson(texto) : desdeCsv(texto), json: esJson };
}

const NO_ES_OBJETO = Symbol.for('no-es-objeto');

/** A cell as text: strings trimmed, numbers written out; objects and arrays are not text. */
function texto(valor: unknown): string | undefined {
  if (valor === undefined || valor === null) return '';
  if (typeof valor === 'string') return valor.trim();
  if (typeof valor === 'number' || typeof valor === 'boolean') return String(valor);
  return undefined;
}

function orden(valor: unknown): number | undefined | null {
  if (valor === undefined || valor === null || valor === '') return undefined;
  const n = typeof valor === 'number' ? valor : typeof valor === 'string' && /^\s*\d{1,5}\s*$/.test(valor) ? Number(valor) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= 32_000 ? n : null;
}

/** Whether any text of the row shows a broken encoding (control characters, U+FFFD). */
function codificacionRota(celdas: FilaLeida['celdas']): boolean {
  return Object.values(celdas).some((v) => typeof v === 'string' && (!textoPermitido(v) || v.includes('\uFFFD')));
}

/** The row's cells checked on their own: the row, or its first problem. */
export function revisarFila(
  { linea, celdas }: FilaLeida,
  columnas: { fuente: boolean; otros_niveles: boolean },
): FilaRevisada | LineaConError {
  const error = (mensaje: string) => ({ linea, mensaje });
  if (celdas.area === NO_ES_OBJETO) return error('La fila debe ser un objeto con las columnas del formato');
  if (codificacionRota(celdas)) return error(CODIFICACION_ROTA);
  const t = Object.fromEntries(COLUMNAS_CURRICULO.map((c) => [c, texto(celdas[c])])) as Record<ColumnaCurriculo, string | undefined>;
  const noTexto = COLUMNAS_CURRICULO.find((c) => t[c] === undefined);
  if (noTexto) return error(`La columna ${noTexto} debe ser un texto`);
  const area = t.area ?? '';
  const nivel = t.nivel ?? '';
  const unidad = (t.unidad ?? '').replace(/\s+/g, ' ');
  const oa = normalizarCodigo(t.oa ?? '');
  const descripcion = t.descripcion ?? '';
  if (!area) return error('Debe indicar la asignatura (columna area)');
  if (!nivel) return error('Debe indicar el nivel (columna nivel)');
  if (!unidad) return error(NOMBRE_UNIDAD_REQUERIDO);
  if (unidad.length > NOMBRE_UNIDAD_MAX) return error(`El nombre de la unidad tiene más de ${NOMBRE_UNIDAD_MAX} caracteres`);
  if (!oa) return error('Debe indicar el código del OA (columna oa)');
  if (oa.length > 40) return error(`El código del OA «${oa.slice(0, 40)}…» es demasiado largo`);
  if (!descripcion) return error(`${ENUNCIADO_REQUERIDO} ${oa}`);
  if (descripcion.length > ENUNCIADO_MAX) return error(`El enunciado del OA ${oa} tiene más de ${ENUNCIADO_MAX} caracteres`);
  const unidadOrden = orden(celdas.unidad_orden);
  if (unidadOrden === null) return error('El orden de la unidad (unidad_orden) debe ser un número entero desde 1');
  const oaOrden = orden(celdas.oa_orden);
  if (oaOrden === null) return error(`El orden del OA ${oa} (oa_orden) debe ser un número entero desde 1`);
  const vigente = leerVigente(celdas.vigente);
  if (vigente === undefined) return error('La columna vigente debe decir sí o no');
  const fuente = t.fuente ?? '';
  if (fuente.length > FUENTE_MAX) return error(`La fuente tiene más de ${FUENTE_MAX} caracteres`);
  if ((t.otros_niveles ?? '').length > 100)
    return error('La columna otros_niveles tiene más de 100 caracteres: escribe solo los códigos (4M)');
  return {
    linea,
    area,
    nivel,
    unidad,
    unidad_orden: unidadOrden,
    oa,
    descripcion,
    oa_orden: oaOrden,
    vigente,
    fuente: columnas.fuente ? fuente || null : undefined,
    otros_niveles: columnas.otros_niveles
      ? [
          ...new Set(
            (t.otros_niveles ?? '')
              .toUpperCase()
              .split(/[\s,;]+/)
              .filter(Boolean),
          ),
        ]
      : undefined,
  };
}

/** Which optional columns that keep what is stored when absent the file has (JSON: some row has the key). */
export const columnasOpcionales = (filas: FilaLeida[]) => ({
  fuente: filas.some((f) => 'fuente' in f.celdas),
  otros_niveles: filas.some((f) => 'otros_niveles' in f.celdas),
});

const escaparCsv = (v: string) => (/[",;\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Rows as a CSV for a spreadsheet: a byte-order mark (Excel reads UTF-8 then), a header, CRLF lines, 'sí'/'no'. */
export function csvDe<C extends string>(columnas: readonly C[], filas: readonly Record<C, string | number | boolean | null>[]): string {
  const lineas = [columnas.join(',')];
  for (const f of filas) {
    lineas.push(
      columnas
        .map((c) => {
          const v = f[c];
          return escaparCsv(typeof v === 'boolean' ? (v ? 'sí' : 'no') : v === null ? '' : String(v));
        })
        .join(','),
    );
  }
  return `\uFEFF${lineas.join('\r\n')}\r\n`;
}

/** Rows as the curriculum export's CSV. */
export const escribirCsv = (filas: readonly Record<ColumnaCurriculo, string | number | boolean | null>[]): string =>
  csvDe(COLUMNAS_CURRICULO, filas);

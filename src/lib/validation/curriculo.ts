/**
 * The curriculum the network keeps (issue 30, /admin/curriculo): the admin calls' inputs and the
 * import file's rows, shared by the API and the console's forms. The file's format is the
 * export's: one row per OA, columns COLUMNAS_CURRICULO.
 */
import { z } from 'zod';
import { booleano, formatoExportacion, requerido } from './campos.ts';
import { texto } from './listas.ts';
import { cadena } from './texto.ts';

/** The import file's columns, in the export's order. */
export const COLUMNAS_CURRICULO = [
  'area',
  'nivel',
  'unidad',
  'unidad_orden',
  'oa',
  'descripcion',
  'oa_orden',
  'vigente',
  'fuente',
  'otros_niveles',
] as const;
export type ColumnaCurriculo = (typeof COLUMNAS_CURRICULO)[number];
/** The columns a file must have; the orders, `vigente`, `fuente` and `otros_niveles` may be left out. */
export const COLUMNAS_REQUERIDAS: readonly ColumnaCurriculo[] = ['area', 'nivel', 'unidad', 'oa', 'descripcion'];

export const CURRICULO_MAX_BYTES = 5 * 1024 * 1024;
export const CURRICULO_MAX_FILAS = 20_000;
/** The longest official statement shipped is 2,005 characters (IN07 OA 08): room for a network's own. */
export const ENUNCIADO_MAX = 3000;
export const NOMBRE_UNIDAD_MAX = 200;
export const FUENTE_MAX = 500;
/** The admin search's OAs. */
export const BUSQUEDA_OAS_MAX = 50;

export const FORMATOS_CURRICULO = ['csv', 'json'] as const;
export type FormatoCurriculo = (typeof FORMATOS_CURRICULO)[number];

export const DEMASIADAS_FILAS = `El archivo tiene más de ${CURRICULO_MAX_FILAS} filas`;
export const CAMBIO_UNIDAD_VACIO = 'Indique al menos un cambio: nombre, orden o vigente';
export const CAMBIO_OA_VACIO = 'Indique al menos un cambio: unidad, orden, descripcion o vigente';
export const ENUNCIADO_REQUERIDO = 'Debe ingresar el enunciado del OA';
export const NOMBRE_UNIDAD_REQUERIDO = 'Debe ingresar el nombre de la unidad';

const hasta = (max: number) => `Puede ingresar hasta ${max} caracteres`;

/** An area's id or code ('MA'), as the admin calls take it; '' means none. */
export const areaCurriculo = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  cadena({ error: 'Asignatura no válida' }).trim().min(1, 'Asignatura no válida').max(20, 'Asignatura no válida'),
);
/** A level code ('07', '1M', 'NT1'). */
export const nivelCurriculo = cadena({ error: 'Nivel no válido' }).trim().min(1, 'Nivel no válido').max(10, 'Nivel no válido');

const opcional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === '-1' ? undefined : v), schema.optional());

/** GET /api/admin/curriculo/: the search and the pair filters. */
export const filtrosCurriculoSchema = z.object({ q: texto, area: opcional(areaCurriculo), nivel: opcional(nivelCurriculo) });
export type FiltrosCurriculo = z.output<typeof filtrosCurriculoSchema>;

/** GET /api/admin/curriculo/exportar/: the format and, optionally, one area and/or level. */
export const exportarCurriculoSchema = z.object({
  formato: formatoExportacion,
  area: opcional(areaCurriculo),
  nivel: opcional(nivelCurriculo),
});
export type ExportarCurriculo = z.output<typeof exportarCurriculoSchema>;
/** GET /api/admin/curriculo/ejemplo/. */
export const ejemploCurriculoSchema = z.object({ formato: formatoExportacion });

const nombreUnidad = requerido(NOMBRE_UNIDAD_REQUERIDO).max(NOMBRE_UNIDAD_MAX, hasta(NOMBRE_UNIDAD_MAX));
const enunciado = requerido(ENUNCIADO_REQUERIDO).max(ENUNCIADO_MAX, hasta(ENUNCIADO_MAX));
const orden = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d{1,5}\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: 'El orden debe ser un número entero desde 1' })
    .int('El orden debe ser un número entero desde 1')
    .min(1, 'El orden debe ser un número entero desde 1')
    .max(32_000, 'El orden no puede pasar de 32000'),
);
const sinCamposDeMas = {
  error: (issue: { code: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `Campo no permitido: ${(issue.keys ?? []).join(', ')}` : undefined,
};

/** POST /api/admin/curriculo/unidades/. */
export const unidadNuevaSchema = z.strictObject(
  {
    area: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), areaCurriculo),
    nivel: nivelCurriculo,
    nombre: nombreUnidad,
  },
  sinCamposDeMas,
);
export type UnidadNueva = z.output<typeof unidadNuevaSchema>;

/** PUT /api/admin/curriculo/unidades/{id}/: rename, move to a position, retire or restore. */
export const cambioUnidadSchema = z
  .strictObject({ nombre: nombreUnidad.optional(), orden: orden.optional(), vigente: booleano('vigente').optional() }, sinCamposDeMas)
  .refine((v) => v.nombre !== undefined || v.orden !== undefined || v.vigente !== undefined, CAMBIO_UNIDAD_VACIO);
export type CambioUnidad = z.output<typeof cambioUnidadSchema>;

/** PUT /api/admin/curriculo/oas/{id}/: move to another unit of its pair, reorder, correct, retire or restore. */
export const cambioOaSchema = z
  .strictObject(
    {
      unidad: z
        .preprocess(
          (v) => (typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v),
          z.number({ error: 'Unidad no válida' }).int('Unidad no válida').min(1, 'Unidad no válida').max(2_147_483_647, 'Unidad no válida'),
        )
        .optional(),
      orden: orden.optional(),
      descripcion: enunciado.optional(),
      vigente: booleano('vigente').optional(),
    },
    sinCamposDeMas,
  )
  .refine(
    (v) => v.unidad !== undefined || v.orden !== undefined || v.descripcion !== undefined || v.vigente !== undefined,
    CAMBIO_OA_VACIO,
  );
export type CambioOa = z.output<typeof cambioOaSchema>;

/** The import form's text field (the file travels in `archivo`). */
export const importacionCurriculoSchema = z.object({
  confirmar: z.preprocess(
    (v) => (v === undefined || v === '' ? 'false' : v),
    z.enum(['true', 'false'], { error: 'confirmar debe ser true o false' }),
  ),
});

const SI = new Set(['si', 'sí', 's', 'true', 'verdadero', '1', 'x', 'yes', 'vigente']);
const NO = new Set(['no', 'n', 'false', 'falso', '0', 'retirado', 'no vigente']);

/** A `vigente` cell: sí/no, true/false, 1/0, a JSON boolean; empty means sí. Undefined when not understood. */
export function leerVigente(valor: unknown): boolean | undefined {
  if (typeof valor === 'boolean') return valor;
  if (valor === undefined || valor === null) return true;
  if (typeof valor === 'number') return valor === 1 ? true : valor === 0 ? false : undefined;
  if (typeof valor !== 'string') return undefined;
  const v = valor.trim().toLowerCase();
  if (v === '') return true;
  return SI.has(v) ? true : NO.has(v) ? false : undefined;
}

/**
 * An OA code as stored: trimmed, upper-case, single spaces; the lower-case 'y' of the Bases 2019
 * modules of either level stays as published ('FG-EFS1-3y4-OAC-01', decision 0084).
 */
export const normalizarCodigo = (codigo: string) => codigo.trim().replace(/\s+/g, ' ').toUpperCase().replace(/-3Y4-/g, '-3y4-');

const escapar = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether an OA code belongs to the area and level (both codes): 'MA07 OA 01' (area and level,
 * then anything), the Bases 2019 form of 3° and 4° medio 'FG-MATE-3M-OAC-01' (the level between
 * dashes; '3y4' for a module of either level, 'FG-EFS1-3y4-OAC-01'), or parvularia's 'OA 01 LV NT'
 * (the núcleo, then NT).
 */
export function codigoDelPar(codigo: string, area: string, nivel: string): boolean {
  const c = normalizarCodigo(codigo);
  const a = area.toUpperCase();
  const n = nivel.toUpperCase();
  if (c.startsWith(`${a}${n} `)) return true;
  if ((n === '3M' || n === '4M') && new RegExp(`^[A-Z]+-[A-Z0-9]+-(${escapar(n)}|3y4)-`).test(c)) return true;
  if (n.startsWith('NT') && new RegExp(`^OA \\d+ ${escapar(a)} NT$`).test(c)) return true;
  return false;
}

/**
 * An example of the import file: one pair, two units, a retired OA, every column. The statements
 * say what goes there instead of quoting an OA (an official text is never written from memory).
 */
export const EJEMPLO_CURRICULO: readonly {
  area: string;
  nivel: string;
  unidad: string;
  unidad_orden: number;
  oa: string;
  descripcion: string;
  oa_orden: number;
  vigente: boolean;
  fuente: string | null;
  otros_niveles: string;
}[] = [
  {
    area: 'MA',
    nivel: '03',
    unidad: 'Unidad 1: números hasta 1000',
    unidad_orden: 1,
    oa: 'MA03 OA 01',
    descripcion: 'Aquí va el enunciado oficial del OA, copiado tal como aparece en la fuente (no lo resumas ni lo reescribas).',
    oa_orden: 1,
    vigente: true,
    fuente: 'https://www.curriculumnacional.cl/',
    otros_niveles: '',
  },
  {
    area: 'MA',
    nivel: '03',
    unidad: 'Unidad 1: números hasta 1000',
    unidad_orden: 1,
    oa: 'MA03 OA 02',
    descripcion: 'Otro enunciado oficial; una columna con comas, punto y coma o «comillas» también se puede escribir.',
    oa_orden: 2,
    vigente: true,
    fuente: 'https://www.curriculumnacional.cl/',
    otros_niveles: '',
  },
  {
    area: 'MA',
    nivel: '03',
    unidad: 'Unidad 2: programa propio de geometría',
    unidad_orden: 2,
    oa: 'MA03 OA 15',
    descripcion: 'Un OA retirado (vigente = no): deja de aparecer en los formularios y sigue en los materiales que lo tienen.',
    oa_orden: 1,
    vigente: false,
    fuente: null,
    otros_niveles: '',
  },
];

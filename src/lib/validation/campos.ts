/**
 * Field rules the content and forum schemas share (docs/SPEC.md section 5). Each takes the exact
 * message its form shows, so a schema reads as its list of fields and their words.
 */
import { z } from 'zod';
import { cadena } from './texto.ts';

/** A text that must not be blank; `abort` keeps its other rules quiet while it is blank. */
export const requerido = (mensaje: string) => cadena({ error: mensaje }).trim().min(1, { error: mensaje, abort: true });

/** A required text of at most `max` characters. */
export const requeridoHasta = (mensaje: string, max: number) => requerido(mensaje).max(max, `Puede ingresar hasta ${max} caracteres`);

/** The largest id PostgreSQL's integer (and serial) columns hold. */
export const ID_MAX = 2_147_483_647;

/** Whether a value is a whole number that fits an id column. */
export const esId = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= ID_MAX;

/** A string of digits (a form's or a URL's) as its number; anything else as it came. */
export const numeroDe = (v: unknown): unknown => (typeof v === 'string' && /^\s*\d{1,20}\s*$/.test(v) ? Number(v) : v);

/**
 * A whole positive id that fits the database: a select's choice ('Seleccionar' sends -1), the
 * record being edited, or an id in a path or query string. A number, or a string of digits (a
 * form's or a URL's); '1.5', '0x10', '1e3', '', true and anything past ID_MAX are refused.
 */
export const idPositivo = (mensaje: string) => z.preprocess(numeroDe, z.number({ error: mensaje }).refine(esId, mensaje));

/** A level code from a select ('Seleccionar' sends -1); codes are short ('1B', 'NT1'). */
export const codigoNivel = (mensaje: string) =>
  cadena({ error: mensaje })
    .trim()
    .refine((v) => v !== '' && v !== '-1' && v !== '0' && v.length <= 10, mensaje);

export const DESCRIPCION_MAX = 1000;

/** The title of a capsule, a material or a manual. */
export const titulo = (max: number) => requeridoHasta('Debe ingresar un título', max);

/** The description of a capsule, a material or a manual. */
export const descripcion = requeridoHasta('Debe ingresar una descripción', DESCRIPCION_MAX);

/**
 * A yes/no field: a boolean from JSON, 'true'/'false' from a query string or a form. A page's own
 * form (`formulario`) also sends 'on' for a ticked box and nothing for an unticked one.
 */
export const booleano = (campo: string, { formulario = false } = {}) =>
  z.preprocess(
    (v) => (v === 'true' || (formulario && v === 'on') ? true : v === 'false' || (formulario && (v === undefined || v === '')) ? false : v),
    z.boolean({ error: `${campo} debe ser ${formulario ? 'verdadero o falso' : 'true o false'}` }),
  );

/** An export's format: CSV (also when empty or absent) or JSON. */
export const formatoExportacion = z.preprocess(
  (v) => (v === undefined || v === '' ? 'csv' : v),
  z.enum(['csv', 'json'], { error: 'Formato no válido: use csv o json' }),
);

/**
 * Field rules the content and forum schemas share (SPEC.md section 5). Each takes the exact
 * message its form shows, so a schema reads as its list of fields and their words.
 */
import { z } from 'zod';

/** A text that must not be blank; `abort` keeps its other rules quiet while it is blank. */
export const requerido = (mensaje: string) => z.string({ error: mensaje }).trim().min(1, { error: mensaje, abort: true });

/** A required text of at most `max` characters. */
export const requeridoHasta = (mensaje: string, max: number) => requerido(mensaje).max(max, `Puede ingresar hasta ${max} caracteres`);

/** A whole positive id: a select's choice ('Seleccionar' sends -1) or the record being edited. */
export const idPositivo = (mensaje: string) => z.coerce.number({ error: mensaje }).int(mensaje).positive(mensaje);

/** A level code from a select ('Seleccionar' sends -1); codes are short ('1B', 'NT1'). */
export const codigoNivel = (mensaje: string) =>
  z
    .string({ error: mensaje })
    .trim()
    .refine((v) => v !== '' && v !== '-1' && v !== '0' && v.length <= 10, mensaje);

export const DESCRIPCION_MAX = 1000;

/** The title of a capsule, a material or a manual. */
export const titulo = (max: number) => requeridoHasta('Debe ingresar un título', max);

/** The description of a capsule, a material or a manual. */
export const descripcion = requeridoHasta('Debe ingresar una descripción', DESCRIPCION_MAX);

/** An account created by an admin (CLI, roster import or the admin endpoint). */
import { z } from 'zod';
import { normalizarRut } from './rut.ts';
import { cadena } from './texto.ts';

const texto = (mensaje: string, max: number) =>
  cadena({ error: mensaje }).trim().min(1, mensaje).max(max, `Puede ingresar hasta ${max} caracteres`);

export const invitacionSchema = z.object({
  email: cadena({ error: 'Debe ingresar un email' }).trim().toLowerCase().pipe(z.email('Debe ingresar un email válido')),
  nombres: texto('Debe ingresar los nombres', 100),
  apellidos: texto('Debe ingresar los apellidos', 100),
  rut: cadena()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return '';
      const rut = normalizarRut(v);
      if (!rut) {
        ctx.addIssue({ code: 'custom', message: 'Debe ingresar un RUT válido' });
        return z.NEVER;
      }
      return rut;
    }),
  colegio: cadena().trim().max(150, 'Puede ingresar hasta 150 caracteres').optional(),
  admin: z
    .union([z.boolean(), z.enum(['true', 'false', 'si', 'no', '1', '0', ''])])
    .optional()
    .transform((v) => v === true || v === 'true' || v === 'si' || v === '1'),
});
export type Invitacion = z.output<typeof invitacionSchema>;

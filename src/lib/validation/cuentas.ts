/**
 * Account forms: one zod schema per form, shared by the React form and the server handler, with
 * the exact Spanish messages of docs/SPEC.md section 5.
 */
import { z } from 'zod';
import { aceptaPrivacidad } from './privacidad.ts';
import { cadena } from './texto.ts';

const requerido = (mensaje: string) => cadena({ error: mensaje }).trim().min(1, mensaje);

export const loginSchema = z.object({
  email: requerido('Debe ingresar un correo').pipe(z.email('Debe ingresar un correo válido')),
  password: cadena({ error: 'Debe ingresar una contraseña' }).min(1, 'Debe ingresar una contraseña'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const recuperarCuentaSchema = z.object({
  email: requerido('Debe ingresar un email').pipe(z.email('Debe ingresar un email válido')),
});
export type RecuperarCuentaInput = z.infer<typeof recuperarCuentaSchema>;

const LARGO = 'La contraseña debe tener entre 8 a 100 caracteres';
const password = cadena({ error: 'Debe ingresar una contraseña' })
  .min(1, { error: 'Debe ingresar una contraseña', abort: true })
  .min(8, { error: LARGO, abort: true })
  .max(100, { error: LARGO, abort: true })
  .refine((v) => /\p{Lu}/u.test(v) && /\p{Ll}/u.test(v) && /\d/.test(v), 'Contraseña debe incluir mayúsculas, minúsculas y numeros');

/** Activation and change-password forms: the two fields must match ('on both fields'). */
export const nuevaContrasenaSchema = z
  .object({
    password,
    password_confirmation: cadena({ error: 'Debe ingresar una contraseña' }).min(1, 'Debe ingresar una contraseña'),
  })
  .superRefine((v, ctx) => {
    if (v.password && v.password_confirmation && v.password !== v.password_confirmation) {
      for (const path of ['password', 'password_confirmation']) {
        ctx.addIssue({ code: 'custom', message: 'Contraseñas no coinciden', path: [path] });
      }
    }
  });
export type NuevaContrasenaInput = z.infer<typeof nuevaContrasenaSchema>;

/** The token of an activation or password link. */
export const tokenSchema = cadena({ error: 'Token no válido' }).min(1, 'Token no válido').max(200, 'Token no válido');

/** What the server receives: the form plus the token from the link. */
export const nuevaContrasenaConTokenSchema = z.object({ token: tokenSchema }).and(nuevaContrasenaSchema);

/** The activation form: the new password and the privacy notice accepted (issue 31). */
export const activacionSchema = nuevaContrasenaSchema.and(z.object({ acepta_privacidad: aceptaPrivacidad }));
export type ActivacionInput = z.infer<typeof activacionSchema>;

/** What the activation endpoint receives: the form plus the token from the link. */
export const activacionConTokenSchema = z.object({ token: tokenSchema }).and(activacionSchema);

export const ASUNTOS_AYUDA = ['Sugerencia', 'Reclamo', 'Ayuda'] as const;

export const ayudaSchema = z.object({
  asunto: z.enum(ASUNTOS_AYUDA, { error: 'Debe ingresar un asunto' }),
  mensaje: requerido('Debe ingresar un mensaje').max(5000, 'Puede ingresar hasta 5000 caracteres'),
});
export type AyudaInput = z.infer<typeof ayudaSchema>;

export const contactoSchema = z.object({
  asunto: requerido('Debe ingresar un asunto').max(150, 'Puede ingresar hasta 150 caracteres'),
  mensaje: requerido('Debe ingresar un mensaje').max(5000, 'Puede ingresar hasta 5000 caracteres'),
});
export type ContactoInput = z.infer<typeof contactoSchema>;

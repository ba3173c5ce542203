/**
 * The second factor's forms (issue 32): the code asked after the password, at enrolment and to
 * remove the factor. One schema each, shared by the islands and the server.
 */
import { z } from 'zod';
import { cadena } from './texto.ts';

const FALTA = 'Ingresa el código de 6 dígitos o un código de recuperación';

/** A 6-digit TOTP code or a recovery code ('abcd-efgh'); spaces and dashes are ignored when checking. */
export const codigo = cadena({ error: FALTA })
  .trim()
  .min(1, { error: FALTA, abort: true })
  .max(20, { error: 'El código es demasiado largo', abort: true });

export const codigoSchema = z.object({ codigo });

export const segundoFactorSchema = z.object({
  desafio: cadena({ error: 'Vuelve a ingresar tu correo y contraseña' }).min(1, 'Vuelve a ingresar tu correo y contraseña').max(200),
  codigo,
  /** 'Recordar este equipo 30 días'. */
  recordar: z.boolean().optional(),
});
export type SegundoFactorInput = z.infer<typeof segundoFactorSchema>;

/** A TOTP code, once spaces (and, on the server, dashes) are taken out: six digits; anything else is a recovery code. */
export const codigoTotp = /^\d{6}$/;

/**
 * The react-hook-form resolvers of every account form, built from the shared zod schemas of
 * src/lib/validation/cuentas.ts. Islands load this module lazily (see validacion.ts).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { activacionSchema, ayudaSchema, loginSchema, nuevaContrasenaSchema, recuperarCuentaSchema } from '../../lib/validation/cuentas';

export const ingreso = zodResolver(loginSchema);
export const recuperacion = zodResolver(recuperarCuentaSchema);
export const nuevaContrasena = zodResolver(nuevaContrasenaSchema);
export const activacion = zodResolver(activacionSchema);
export const ayuda = zodResolver(ayudaSchema);

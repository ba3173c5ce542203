/**
 * The profile rules that need no zod (docs/SPEC.md sections 5 and 9): constants, messages, the Chilean
 * phone format and name comparison. Islands import this module directly; the zod schemas of
 * perfil.ts build on it and arrive later, in the validation chunk.
 */

export const GENEROS = ['Masculino', 'Femenino', 'Otro'] as const;
export type Genero = (typeof GENEROS)[number];

/** docs/SPEC.md section 9: at most 5 specialties per teacher (the add button hides at 5). */
export const MAX_ESPECIALIDADES = 5;
/** docs/SPEC.md section 9: a custom specialty has more than 3 and fewer than 100 characters. */
export const ESPECIALIDAD_MIN = 4;
export const ESPECIALIDAD_MAX = 99;

export const EMAIL_INVALIDO = 'Debe ingresar un email válido';
export const TELEFONO_INVALIDO = 'Debe ingresar un telefono válido';
export const ESPECIALIDAD_REQUERIDA = 'Debe seleccionar un especialidad';
export const AREA_REQUERIDA = 'Debe seleccionar un area';

/**
 * A Chilean number: since 2016 every number has 9 digits after +56, mobiles start with 9,
 * Santiago's landlines with 2 and the regions' with a two-digit area code (32, 41, 55, ...).
 * Spaces, dashes, dots and parentheses are ignored. Answers the stored form ('+56 9 1234 5678',
 * '+56 2 2123 4567', '+56 41 212 3456'), or null when it is not a Chilean number.
 */
export function normalizarTelefono(entrada: string): string | null {
  const digitos = entrada.replace(/[\s.\-()]/g, '');
  const m = /^(?:\+?56)?([2-79]\d{8})$/.exec(digitos);
  const n = m?.[1];
  if (!n) return null;
  if (n.startsWith('9') || n.startsWith('2')) return `+56 ${n[0]} ${n.slice(1, 5)} ${n.slice(5)}`;
  return `+56 ${n.slice(0, 2)} ${n.slice(2, 5)} ${n.slice(5)}`;
}

/** The value of the specialty picker's last option: the teacher writes the name. */
export const OTRA_ESPECIALIDAD = '__otra__';

/** Names compared the way people read them: case, accents and repeated spaces do not matter. */
export const claveNombre = (nombre: string) =>
  nombre
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** docs/SPEC.md section 5: owned specialties (or areas) are not offered again. */
export function sinLasPropias(opciones: readonly string[], propias: readonly string[]): string[] {
  const tengo = new Set(propias.map(claveNombre));
  return opciones.filter((o) => !tengo.has(claveNombre(o)));
}

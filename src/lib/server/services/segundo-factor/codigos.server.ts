/**
 * Checking a person's second-factor codes (issue 32, decision 0065): TOTP codes (RFC 6238,
 * through `otpauth`: SHA-1, 6 digits, 30-second steps, one step either side for clocks that drift)
 * and the single-use recovery codes. A TOTP code is accepted once: the step of the last accepted
 * code is stored, and a code of that step or an earlier one is refused (a replay).
 */
import { randomInt } from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { codigoTotp } from '../../../validation/segundo-factor.ts';
import { hashToken } from '../../auth/tokens.server.ts';
import type { Db } from '../../db/client.server.ts';
import { codigosRecuperacion, segundosFactores } from '../../db/schema.server.ts';

export const EMISOR = 'Entre Docentes';
const PERIODO = 30;
const VENTANA = 1;
export const CANTIDAD_RECUPERACION = 10;
/** Recovery codes: two groups of four from an alphabet without look-alikes (0/o, 1/l/i). */
const ALFABETO = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new random secret (160 bits, RFC 4226's recommended length), in base32. */
export const nuevoSecreto = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URL an authenticator app reads from the QR code. */
export function urlOtpauth(secreto: string, cuenta: string): string {
  return new TOTP({ issuer: EMISOR, label: cuenta, secret: Secret.fromBase32(secreto), period: PERIODO }).toString();
}

/** The time step a 6-digit code belongs to (now, or one step either side), or null when it is not valid. */
export function pasoDelCodigo(secreto: string, codigo: string, ahora: Date): number | null {
  const totp = new TOTP({ secret: Secret.fromBase32(secreto), period: PERIODO });
  const delta = totp.validate({ token: codigo, timestamp: ahora.getTime(), window: VENTANA });
  return delta === null ? null : TOTP.counter({ period: PERIODO, timestamp: ahora.getTime() }) + delta;
}

const normalizar = (codigo: string) => codigo.replace(/[\s-]/g, '').toLowerCase();
export const esCodigoTotp = (codigo: string) => codigoTotp.test(normalizar(codigo));

/** Ten new recovery codes, as shown to the person once ('abcd-efgh'), and their hashes to store. */
export function nuevosCodigosRecuperacion(): { codigos: string[]; hashes: string[] } {
  const codigos = Array.from({ length: CANTIDAD_RECUPERACION }, () => {
    const letras = Array.from({ length: 8 }, () => ALFABETO[randomInt(ALFABETO.length)]).join('');
    return `${letras.slice(0, 4)}-${letras.slice(4)}`;
  });
  return { codigos, hashes: codigos.map((c) => hashToken(normalizar(c))) };
}

/**
 * Accepts a TOTP code of a secret and claims its step, in one update: two requests with the same
 * code cannot both pass. `soloSinConfirmar` checks the enrolment's first code instead of a
 * confirmed factor's.
 */
export async function aceptarTotp(db: Db, idUsuario: number, codigo: string, ahora: Date, soloSinConfirmar = false): Promise<boolean> {
  const [factor] = await db.select().from(segundosFactores).where(eq(segundosFactores.id_usuario, idUsuario));
  if (!factor || (factor.confirmado === null) !== soloSinConfirmar) return false;
  const paso = pasoDelCodigo(factor.secreto, normalizar(codigo), ahora);
  if (paso === null) return false;
  const reclamado = await db
    .update(segundosFactores)
    .set({ ultimo_paso: paso, ...(soloSinConfirmar ? { confirmado: ahora } : {}) })
    .where(
      and(
        eq(segundosFactores.id_usuario, idUsuario),
        eq(segundosFactores.secreto, factor.secreto),
        soloSinConfirmar ? isNull(segundosFactores.confirmado) : isNotNull(segundosFactores.confirmado),
        or(isNull(segundosFactores.ultimo_paso), lt(segundosFactores.ultimo_paso, paso)),
      ),
    )
    .returning({ id: segundosFactores.id_usuario });
  return reclamado.length === 1;
}

/** Spends one unused recovery code of the person; false when it is not one (or was used). */
export async function usarCodigoRecuperacion(db: Db, idUsuario: number, codigo: string, ahora: Date): Promise<boolean> {
  const usado = await db
    .update(codigosRecuperacion)
    .set({ usado: ahora })
    .where(
      and(
        eq(codigosRecuperacion.id_usuario, idUsuario),
        eq(codigosRecuperacion.codigo_hash, hashToken(normalizar(codigo))),
        isNull(codigosRecuperacion.usado),
      ),
    )
    .returning({ id: codigosRecuperacion.id });
  return usado.length === 1;
}

/** What a code was: a TOTP code, a recovery code, or neither (wrong, replayed or used). */
export type CodigoAceptado = 'totp' | 'recuperacion' | null;

/** Checks a code of a confirmed factor: six digits are a TOTP code, anything else a recovery code. */
export async function verificarCodigo(db: Db, idUsuario: number, codigo: string, ahora: Date): Promise<CodigoAceptado> {
  if (esCodigoTotp(codigo)) return (await aceptarTotp(db, idUsuario, codigo, ahora)) ? 'totp' : null;
  return (await usarCodigoRecuperacion(db, idUsuario, codigo, ahora)) ? 'recuperacion' : null;
}

/** Whether the person has a confirmed second factor. */
export async function tieneSegundoFactor(db: Pick<Db, 'select'>, idUsuario: number): Promise<boolean> {
  const [fila] = await db
    .select({ id: segundosFactores.id_usuario })
    .from(segundosFactores)
    .where(and(eq(segundosFactores.id_usuario, idUsuario), isNotNull(segundosFactores.confirmado)));
  return fila !== undefined;
}

/** How many of the person's recovery codes are still unused (their page, Mis datos). */
export async function codigosRestantes(db: Pick<Db, 'select'>, idUsuario: number): Promise<number> {
  const [fila] = await db
    .select({ n: count() })
    .from(codigosRecuperacion)
    .where(and(eq(codigosRecuperacion.id_usuario, idUsuario), isNull(codigosRecuperacion.usado)));
  return fila?.n ?? 0;
}

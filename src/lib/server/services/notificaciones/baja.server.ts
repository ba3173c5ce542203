/**
 * One-click unsubscribe tokens (RFC 8058): the person's id signed with the app's secret, in every
 * notification mail's link and List-Unsubscribe header.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const firma = (secret: string, id: number) => createHmac('sha256', secret).update(`baja-correo:${id}`).digest('base64url');

/** A token naming the person, signed with the app's secret: it does not expire (RFC 8058 links stay valid). */
export function tokenBaja(secret: string, idUsuario: number): string {
  return `${idUsuario}.${firma(secret, idUsuario)}`;
}

/** The person a token names, or null when it is not ours. */
export function usuarioDeTokenBaja(secret: string, token: string): number | null {
  const m = /^([1-9]\d{0,9})\.([\w-]{43})$/.exec(token);
  if (!m) return null;
  const id = Number(m[1]);
  const esperada = Buffer.from(firma(secret, id));
  const dada = Buffer.from(m[2] ?? '');
  return dada.length === esperada.length && timingSafeEqual(dada, esperada) ? id : null;
}

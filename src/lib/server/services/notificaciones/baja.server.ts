/**
 * One-click tokens in notification mail, signed with the app's secret: unsubscribing from all
 * notification mail (RFC 8058: the person's id, in every mail's link and List-Unsubscribe header)
 * and stopping one follow (issue 35: the follow's id, beside each of its lines in a mail).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

type Proposito = 'baja-correo' | 'dejar-de-seguir';

const firma = (secret: string, proposito: Proposito, id: number) =>
  createHmac('sha256', secret).update(`${proposito}:${id}`).digest('base64url');

/** A token naming an id for one purpose: it does not expire (RFC 8058 links stay valid). */
const token = (secret: string, proposito: Proposito, id: number) => `${id}.${firma(secret, proposito, id)}`;

/** The id a token names for this purpose, or null when it is not ours. */
function idDeToken(secret: string, proposito: Proposito, dado: string): number | null {
  const m = /^([1-9]\d{0,9})\.([\w-]{43})$/.exec(dado);
  if (!m) return null;
  const id = Number(m[1]);
  const esperada = Buffer.from(firma(secret, proposito, id));
  const recibida = Buffer.from(m[2] ?? '');
  return recibida.length === esperada.length && timingSafeEqual(recibida, esperada) ? id : null;
}

/** A token naming the person (unsubscribe from notification mail). */
export const tokenBaja = (secret: string, idUsuario: number) => token(secret, 'baja-correo', idUsuario);

/** The person an unsubscribe token names, or null when it is not ours. */
export const usuarioDeTokenBaja = (secret: string, dado: string) => idDeToken(secret, 'baja-correo', dado);

/** A token naming one follow (its stop link in mail). */
export const tokenDejarDeSeguir = (secret: string, idSeguimiento: number) => token(secret, 'dejar-de-seguir', idSeguimiento);

/** The follow a stop token names, or null when it is not ours. */
export const seguimientoDeToken = (secret: string, dado: string) => idDeToken(secret, 'dejar-de-seguir', dado);

/** The path of a follow's stop link (GET: a page that confirms; POST: stops it, no sign-in). */
export const RUTA_DEJAR_DE_SEGUIR = '/api/seguimientos/dejar/';

/** A follow's stop link, absolute, for mail. */
export const urlDejarDeSeguir = (publicUrl: string, secret: string, idSeguimiento: number) =>
  `${publicUrl}${RUTA_DEJAR_DE_SEGUIR}${tokenDejarDeSeguir(secret, idSeguimiento)}/`;

/** The follow a notification is about ('seguimiento_oa'… with the follow's id), or null. */
export const seguimientoDeNotificacion = (n: { tipo: string; id_recurso: number }) => (n.tipo === 'seguimiento' ? n.id_recurso : null);

/**
 * A write the server's storage refused (issue 28 item 6): the disk is full, or the bucket does not
 * answer. Either is the server's fault, never the teacher's file: the API answers 507 or 503 with
 * these words (app.server.ts), after the service has undone what it began.
 */

export const SIN_ESPACIO_ARCHIVO =
  'El servidor no tiene espacio para guardar tu archivo en este momento. Tu archivo no tiene problemas: intenta de nuevo más tarde.';
export const ALMACENAMIENTO_NO_RESPONDE =
  'El almacenamiento de archivos del servidor no responde en este momento. Tu archivo no tiene problemas: intenta de nuevo más tarde.';

/** The error and the causes it wraps (a pipeline's, a library's). */
function* cadena(error: unknown): Generator<unknown> {
  for (let e = error, n = 0; e && n < 8; e = (e as { cause?: unknown }).cause, n++) yield e;
}

/** The disk refused a write: full, over a quota, or a file larger than the file system takes. */
export function sinEspacio(error: unknown): boolean {
  for (const e of cadena(error)) {
    if (['ENOSPC', 'EDQUOT', 'EFBIG'].includes((e as NodeJS.ErrnoException).code ?? '')) return true;
  }
  return false;
}

/** The bucket refused or did not answer: the AWS SDK marks every error it throws with `$metadata`. */
export function almacenamientoNoResponde(error: unknown): boolean {
  for (const e of cadena(error)) {
    if (e && typeof e === 'object' && '$metadata' in e) return true;
  }
  return false;
}

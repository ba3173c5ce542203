/**
 * The captions form's check in the browser (issue 20), with the schema and messages the server
 * uses (src/lib/validation/subtitulos.ts). Loaded lazily, like the forms' resolvers: it brings zod.
 * The server parses the cues; here a file only has to look like captions, so a video or a
 * document picked by mistake is caught before the capsule is created.
 */
import {
  extensionSubtitulo,
  MAX_SUBTITULO_BYTES,
  SUBTITULO_GRANDE,
  SUBTITULO_INVALIDO,
  SUBTITULO_REQUERIDO,
  subtituloSchema,
} from '../../lib/validation/subtitulos';
import type { ErroresSubtitulo } from './subtitulos';

/** Bytes read to see whether a file has cue timings ('00:00:01.000 --> 00:00:03.000'). */
const MUESTRA = 64 * 1024;

export async function revisarSubtitulo(archivo: File | null, idioma: string): Promise<ErroresSubtitulo> {
  const errores: ErroresSubtitulo = {};
  const revisado = subtituloSchema.safeParse({ idioma });
  if (!revisado.success) errores.idioma = revisado.error.issues[0]?.message;
  if (!archivo) errores.archivo = SUBTITULO_REQUERIDO;
  else if (archivo.size > MAX_SUBTITULO_BYTES) errores.archivo = SUBTITULO_GRANDE;
  else if (!extensionSubtitulo(archivo.name) || !(await conTiempos(archivo))) errores.archivo = SUBTITULO_INVALIDO;
  return errores;
}

async function conTiempos(archivo: File): Promise<boolean> {
  try {
    const texto = await archivo.slice(0, MUESTRA).text();
    return !texto.includes('\u0000') && /\d{2}:\d{2}[.,]\d{3}\s*-->\s*(\d{2}:)?\d{2}:\d{2}[.,]\d{3}/.test(texto);
  } catch {
    return false;
  }
}

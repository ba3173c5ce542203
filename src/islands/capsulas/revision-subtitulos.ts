/**
 * The captions form's check in the browser (issue 20), with the schema and messages the server
 * uses (src/lib/validation/subtitulos.ts). Loaded lazily, like the forms' resolvers: it brings zod.
 * The server parses the cues; here a file only has to look like captions (text with a timing line
 * the server's parser reads, the same pattern), so a video or a document picked by mistake is
 * caught before the capsule is created and no file the server would take is refused.
 */
import {
  extensionSubtitulo,
  MAX_SUBTITULO_BYTES,
  SUBTITULO_GRANDE,
  SUBTITULO_INVALIDO,
  SUBTITULO_REQUERIDO,
  subtituloSchema,
  tieneTiempos,
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

/** The sample's text as the server reads it: UTF-16 with a BOM (Notepad's 'Unicode'), otherwise UTF-8. */
function texto(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  // Bytes that are not UTF-8 (a Windows-1252 SRT) come out as U+FFFD: the timings are ASCII either way.
  return new TextDecoder('utf-8').decode(bytes);
}

async function conTiempos(archivo: File): Promise<boolean> {
  try {
    const muestra = texto(new Uint8Array(await archivo.slice(0, MUESTRA).arrayBuffer()));
    return !muestra.includes('\u0000') && tieneTiempos(muestra);
  } catch {
    return false;
  }
}

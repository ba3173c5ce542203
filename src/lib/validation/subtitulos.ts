/**
 * Captions of a capsule (issue 20): the languages offered, the form's fields and the messages.
 * Shared by the upload and edit forms and by the server (POST /api/capsulas/{id}/subtitulos/).
 * Parsing the file itself (WebVTT, or SRT converted to WebVTT) is the server's
 * (src/lib/server/media/subtitulos.server.ts); its refusal uses SUBTITULO_INVALIDO. The timing
 * line's pattern is here so that the browser's first look at a file and the server's parser
 * accept the same times.
 */
import { z } from 'zod';
// Spanish messages and no code generation (the pages' CSP refuses eval), as for every shared schema.
import './zod-es.ts';

/**
 * Spanish first, then the languages of Chile's peoples and the foreign ones most taught: the
 * code is the `srclang` of the player's track (BCP 47), the name what the menus show.
 */
export const IDIOMAS_SUBTITULOS = {
  es: 'Español',
  arn: 'Mapudungun',
  rap: 'Rapa Nui',
  ay: 'Aymara',
  qu: 'Quechua',
  en: 'Inglés',
  fr: 'Francés',
  pt: 'Portugués',
} as const;
export type IdiomaSubtitulo = keyof typeof IDIOMAS_SUBTITULOS;
export const CODIGOS_IDIOMA = Object.keys(IDIOMAS_SUBTITULOS) as [IdiomaSubtitulo, ...IdiomaSubtitulo[]];

/** The largest caption file taken: an hour of dense captions is about 100 kB. */
export const MAX_SUBTITULO_BYTES = 1024 * 1024;

export const IDIOMA_NO_VALIDO = 'Elige un idioma de la lista';
export const SUBTITULO_REQUERIDO = 'Selecciona un archivo de subtítulos (.vtt o .srt)';
export const SUBTITULO_INVALIDO = 'El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido';
export const SUBTITULO_GRANDE = 'El archivo de subtítulos supera el tamaño máximo permitido (1 MB)';
export const SUBTITULO_NO_ENCONTRADO = 'La cápsula no tiene subtítulos en ese idioma';

export const idiomaSubtitulo = z.enum(CODIGOS_IDIOMA, { error: IDIOMA_NO_VALIDO });

/** The form's fields besides the file (`archivo`). */
export const subtituloSchema = z.object({ idioma: idiomaSubtitulo });
export type SubtituloInput = z.infer<typeof subtituloSchema>;

/** A caption file's name must end in .vtt or .srt (the bytes decide, this is the first check). */
export const extensionSubtitulo = (nombre: string): 'vtt' | 'srt' | null => {
  const m = /\.(vtt|srt)$/i.exec(nombre.trim());
  return m ? (m[1]?.toLowerCase() as 'vtt' | 'srt') : null;
};

/**
 * A cue time: `hh:mm:ss.ttt` or `mm:ss.ttt`, one or two digits a field (up to three for hours),
 * a dot or SRT's comma before a fraction of one to three digits, or no fraction.
 */
const TIEMPO = String.raw`(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?`;

/**
 * A cue's timing line ('00:00:01,5 --> 0:00:03,0 align:start'): groups 1-4 the start's hours,
 * minutes, seconds and fraction, 5-8 the end's, 9 the cue settings. Ranges (minutes and seconds up
 * to 59, the start before the end) are checked by the server's parser.
 */
export const LINEA_TIEMPOS = new RegExp(String.raw`^\s*${TIEMPO}\s*-->\s*${TIEMPO}(?:[ \t]+(.*))?$`);

/** True when some line of `texto` (any line ends) is a timing line the server's parser reads. */
export const tieneTiempos = (texto: string): boolean => texto.split(/\r\n?|\n/).some((linea) => LINEA_TIEMPOS.test(linea));

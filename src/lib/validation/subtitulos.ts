/**
 * Captions of a capsule (issue 20): the languages offered, the form's fields and the messages.
 * Shared by the upload and edit forms and by the server (POST /api/capsulas/{id}/subtitulos/).
 * Parsing the file itself (WebVTT, or SRT converted to WebVTT) is the server's
 * (src/lib/server/media/subtitulos.server.ts); its refusal uses SUBTITULO_INVALIDO.
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

export const IDIOMA_NO_VALIDO = 'Elija un idioma de la lista';
export const SUBTITULO_REQUERIDO = 'Seleccione un archivo de subtítulos (.vtt o .srt)';
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

/** The captions' languages as the forms and the transcript offer them: Español first (issue 20). */
import { CODIGOS_IDIOMA, IDIOMAS_SUBTITULOS, type IdiomaSubtitulo } from '../../../lib/validation/subtitulos.ts';

export const opcionesIdioma = (): { codigo: IdiomaSubtitulo; nombre: string }[] =>
  CODIGOS_IDIOMA.map((codigo) => ({ codigo, nombre: IDIOMAS_SUBTITULOS[codigo] }));

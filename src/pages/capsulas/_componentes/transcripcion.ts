/**
 * 'Ver transcripción' (issue 20): a capsule's caption lines as paragraphs a person can read, each
 * with the moment it starts. Captions come in short lines of a few words; a paragraph closes once
 * it is long enough and a sentence ends, when it grows too long without one, or where the video
 * has a long pause.
 */

/** A caption line as the service keeps it (subtitulos.lineas): seconds and plain text. */
export interface LineaSubtitulo {
  inicio: number;
  fin: number;
  texto: string;
}

export interface Parrafo {
  /** Where its first line starts, in whole seconds (the link seeks there). */
  segundo: number;
  texto: string;
}

/** A paragraph closes at the end of a sentence once it has this many characters. */
const LARGO_BUSCADO = 240;
/** ...and at the next line once it has this many, sentence or not. */
const LARGO_MAXIMO = 480;
/** A silence this long (seconds) between two lines starts a new paragraph. */
const PAUSA = 5;

const terminaFrase = (texto: string) => /[.?!…»"”)]$/.test(texto) && /[.?!…]/.test(texto.slice(-3));

export function parrafos(lineas: readonly LineaSubtitulo[]): Parrafo[] {
  const resultado: Parrafo[] = [];
  let actual: { segundo: number; partes: string[]; largo: number } | null = null;
  let finAnterior = 0;
  const cerrar = () => {
    if (actual) resultado.push({ segundo: actual.segundo, texto: actual.partes.join(' ') });
    actual = null;
  };
  for (const linea of lineas) {
    const texto = linea.texto.replace(/\s+/g, ' ').trim();
    if (!texto) continue;
    if (actual && linea.inicio - finAnterior >= PAUSA) cerrar();
    actual ??= { segundo: Math.max(0, Math.floor(linea.inicio)), partes: [], largo: 0 };
    actual.partes.push(texto);
    actual.largo += texto.length + 1;
    finAnterior = linea.fin;
    if ((actual.largo >= LARGO_BUSCADO && terminaFrase(texto)) || actual.largo >= LARGO_MAXIMO) cerrar();
  }
  cerrar();
  return resultado;
}

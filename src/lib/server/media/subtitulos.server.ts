/**
 * A caption file's bytes read into cues (issue 20): WebVTT, or SRT converted to WebVTT, told
 * apart by the bytes (a 'WEBVTT' header), never by the name. What is stored and served is always
 * a WebVTT written here from the parsed cues, never the upload: only the cue markup WebVTT defines
 * (b, i, u, c, v, lang, ruby, rt) with safe class names, only the cue settings it defines, and
 * text escaped; NOTE, STYLE and REGION blocks, identifiers and anything else are dropped. The
 * plain text of each cue (tags stripped, entities decoded) is what the transcript and the search use.
 *
 * Text encodings: UTF-8 (with or without a BOM) and UTF-16 with a BOM (Windows Notepad's
 * 'Unicode') are read as such. Bytes that are not valid UTF-8 are read as Windows-1252 (a superset
 * of Latin-1), as old subtitle tools on Windows save SRTs in Spanish: converting them keeps
 * 'fracción' readable where refusing would send a teacher hunting for an encoding setting. Binary
 * files (a NUL byte or other control characters) are refused.
 */
import { LINEA_TIEMPOS, MAX_SUBTITULO_BYTES } from '../../validation/subtitulos.ts';
import type { LineaSubtitulo } from '../db/schema.server.ts';

export type { LineaSubtitulo };

export interface SubtituloLeido {
  formato: 'vtt' | 'srt';
  codificacion: 'utf-8' | 'utf-16' | 'windows-1252';
  /** The cues in time order, their text plain (no markup, entities decoded, one line). */
  lineas: LineaSubtitulo[];
  /** Every cue's plain text, one line each: what the search reads. */
  texto: string;
  /** The WebVTT to serve, written from the cues. */
  vtt: string;
}

/** A file that is not a caption file; `motivo` says why, in Spanish, for the person who sent it. */
export class SubtituloInvalido extends Error {
  readonly motivo: string;
  constructor(motivo: string) {
    super(motivo);
    this.name = 'SubtituloInvalido';
    this.motivo = motivo;
  }
}

/** The last moment a cue may end: a day, far beyond any capsule. */
const MAX_MS = 24 * 60 * 60 * 1000;

interface Cue {
  inicio: number;
  fin: number;
  ajustes: string;
  /** The cue's lines as written (markup and entities still in). */
  lineas: string[];
  /** Line number of its timing line (1-based), for messages. */
  numero: number;
}

// ---- Bytes to text ---------------------------------------------------------------------------

const empiezaCon = (bytes: Uint8Array, firma: number[]) => firma.every((b, i) => bytes[i] === b);

/** Kinder words for files that are plainly something else. */
function queEs(bytes: Uint8Array): string | null {
  const inicio = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  if (inicio.startsWith('%PDF-')) return 'un PDF';
  if (inicio.startsWith('PK\x03\x04')) return 'un archivo comprimido o un documento de Office';
  if (inicio.startsWith('\xd0\xcf\x11\xe0')) return 'un documento de Office';
  if (inicio.startsWith('{\\rtf')) return 'un documento RTF (de WordPad o Word)';
  const bajo = (desde: number, firma: string) => inicio.slice(desde, desde + firma.length) === firma;
  if (['\x89PNG', '\xff\xd8\xff', 'GIF8'].some((f) => bajo(0, f)) || (bajo(0, 'RIFF') && bajo(8, 'WEBP'))) return 'una imagen';
  if (
    bajo(4, 'ftyp') ||
    (bajo(0, 'RIFF') && bajo(8, 'AVI ')) ||
    ['\x1aE\xdf\xa3', '\0\0\x01\xba', '\0\0\x01\xb3'].some((f) => bajo(0, f))
  ) {
    return 'un video';
  }
  return null;
}

function decodificar(bytes: Uint8Array): { texto: string; codificacion: SubtituloLeido['codificacion'] } {
  if (empiezaCon(bytes, [0xff, 0xfe])) return { texto: new TextDecoder('utf-16le').decode(bytes.subarray(2)), codificacion: 'utf-16' };
  if (empiezaCon(bytes, [0xfe, 0xff])) return { texto: new TextDecoder('utf-16be').decode(bytes.subarray(2)), codificacion: 'utf-16' };
  try {
    // ignoreBOM: the BOM stays in the text and is removed with the other invisible marks below.
    return { texto: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), codificacion: 'utf-8' };
  } catch {
    return { texto: new TextDecoder('windows-1252').decode(bytes), codificacion: 'windows-1252' };
  }
}

/** C0 controls but tab, line feed, form feed and carriage return; DEL; C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/;

function aTexto(bytes: Uint8Array): { texto: string; codificacion: SubtituloLeido['codificacion'] } {
  if (bytes.length > MAX_SUBTITULO_BYTES) throw new SubtituloInvalido('El archivo supera el tamaño máximo permitido (1 MB).');
  const otro = queEs(bytes);
  if (otro) throw new SubtituloInvalido(`El archivo es ${otro}, no un archivo de subtítulos.`);
  const leido = decodificar(bytes);
  if (CONTROL.test(leido.texto)) throw new SubtituloInvalido('El archivo no es de texto.');
  const limpio = leido.texto.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (limpio.trim() === '') throw new SubtituloInvalido('El archivo está vacío.');
  return { texto: limpio, codificacion: leido.codificacion };
}

// ---- Times -----------------------------------------------------------------------------------

// The timing line's pattern (LINEA_TIEMPOS) is shared with the browser's check, in the validation module.

function ms(h: string | undefined, m: string | undefined, s: string | undefined, f: string | undefined): number | null {
  const minutos = Number(m);
  const segundos = Number(s);
  if (minutos > 59 || segundos > 59) return null;
  const fraccion = f ? Math.round(Number(`0.${f}`) * 1000) : 0;
  return ((Number(h ?? 0) * 60 + minutos) * 60 + segundos) * 1000 + fraccion;
}

/** `hh:mm:ss.ttt` for the WebVTT written, and for messages. */
export function formatoTiempo(milisegundos: number): string {
  const dos = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(milisegundos / 3_600_000);
  const m = Math.floor(milisegundos / 60_000) % 60;
  const s = Math.floor(milisegundos / 1000) % 60;
  return `${dos(h)}:${dos(m)}:${dos(s)}.${String(milisegundos % 1000).padStart(3, '0')}`;
}

const muestra = (linea: string) => {
  const corta = linea.trim();
  return corta.length > 60 ? `${corta.slice(0, 57)}...` : corta;
};

function tiempos(linea: string, numero: number): Pick<Cue, 'inicio' | 'fin' | 'ajustes'> {
  const m = LINEA_TIEMPOS.exec(linea);
  const invalida = () => new SubtituloInvalido(`Los tiempos de la línea ${numero} no son válidos: «${muestra(linea)}».`);
  if (!m) throw invalida();
  const inicio = ms(m[1], m[2], m[3], m[4]);
  const fin = ms(m[5], m[6], m[7], m[8]);
  if (inicio === null || fin === null) throw invalida();
  if (fin > MAX_MS) throw new SubtituloInvalido(`Los tiempos de la línea ${numero} pasan de 24 horas.`);
  if (inicio >= fin) {
    throw new SubtituloInvalido(
      `En la línea ${numero}, el inicio (${formatoTiempo(inicio)}) no es anterior al fin (${formatoTiempo(fin)}).`,
    );
  }
  return { inicio, fin, ajustes: m[9] ?? '' };
}

// ---- Blocks to cues --------------------------------------------------------------------------

interface Bloque {
  lineas: string[];
  /** Line number of its first line (1-based). */
  desde: number;
}

/** Runs of lines between blank ones (a line of spaces counts as blank). */
function bloques(texto: string): Bloque[] {
  const resultado: Bloque[] = [];
  let actual: Bloque | null = null;
  texto.split('\n').forEach((linea, i) => {
    if (linea.trim() === '') {
      actual = null;
      return;
    }
    if (!actual) {
      actual = { lineas: [], desde: i + 1 };
      resultado.push(actual);
    }
    actual.lineas.push(linea);
  });
  return resultado;
}

const esTiempos = (linea: string) => linea.includes('-->');
const esNumero = (linea: string) => /^\s*\d+\s*$/.test(linea);

/**
 * The cues of one block. A block may hold several cues when a file lost the blank lines between
 * them; the line just before a timing line is then the next cue's number (SRT) and not text.
 * Lines before the first timing line are an identifier, or in SRT text that belongs to the cue
 * before (a blank line inside a cue's text, common in hand-made SRTs): `huerfanas` gets them.
 */
function cuesDe(bloque: Bloque, huerfanas: (lineas: string[]) => void): Cue[] {
  const indices = bloque.lineas.flatMap((l, i) => (esTiempos(l) ? [i] : []));
  if (indices.length === 0) {
    huerfanas(bloque.lineas);
    return [];
  }
  const primera = indices[0] ?? 0;
  // One line before the first timing line is its identifier; more are text of the cue before.
  if (primera > 1) huerfanas(bloque.lineas.slice(0, primera - 1));
  return indices.map((indice, k) => {
    const siguiente = indices[k + 1];
    let hasta = siguiente ?? bloque.lineas.length;
    if (siguiente !== undefined && siguiente - 1 > indice && esNumero(bloque.lineas[siguiente - 1] ?? '')) hasta = siguiente - 1;
    const numero = bloque.desde + indice;
    return { ...tiempos(bloque.lineas[indice] ?? '', numero), lineas: bloque.lineas.slice(indice + 1, hasta), numero };
  });
}

const CABECERA = /^WEBVTT(?:[ \t].*)?$/;
const BLOQUE_VTT_IGNORADO = /^(?:NOTE|STYLE|REGION)(?:[ \t].*)?$/;

function leerCues(texto: string): { formato: 'vtt' | 'srt'; cues: Cue[] } {
  const todos = bloques(texto);
  const primera = todos[0]?.lineas[0] ?? '';
  const formato = CABECERA.test(primera) ? 'vtt' : 'srt';
  const cues: Cue[] = [];
  for (const [i, bloque] of todos.entries()) {
    let actual = bloque;
    if (formato === 'vtt' && i === 0) {
      // The header and its metadata lines; a cue may follow with no blank line between.
      const t = bloque.lineas.findIndex(esTiempos);
      if (t < 0) continue;
      actual = { lineas: bloque.lineas.slice(t), desde: bloque.desde + t };
    }
    if (formato === 'vtt' && BLOQUE_VTT_IGNORADO.test(actual.lineas[0] ?? '') && !esTiempos(actual.lineas[0] ?? '')) continue;
    const nuevos = cuesDe(actual, (lineas) => {
      // WebVTT ignores text outside cues; SRT's belongs to the cue before.
      if (formato === 'srt') cues.at(-1)?.lineas.push(...lineas);
    });
    cues.push(...nuevos);
  }
  return { formato, cues };
}

// ---- Cue text: plain and safe markup --------------------------------------------------------

const ENTIDADES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
  aacute: 'á',
  eacute: 'é',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  Aacute: 'Á',
  Eacute: 'É',
  Iacute: 'Í',
  Oacute: 'Ó',
  Uacute: 'Ú',
  ntilde: 'ñ',
  Ntilde: 'Ñ',
  uuml: 'ü',
  Uuml: 'Ü',
  iquest: '¿',
  iexcl: '¡',
  laquo: '«',
  raquo: '»',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  deg: '°',
  ordm: 'º',
  ordf: 'ª',
};

function decodificarEntidades(texto: string): string {
  return texto.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]{2,8});/g, (entera, nombre: string) => {
    if (nombre.startsWith('#')) {
      const codigo = nombre[1] === 'x' || nombre[1] === 'X' ? Number.parseInt(nombre.slice(2), 16) : Number(nombre.slice(1));
      const valido = codigo > 0 && codigo <= 0x10ffff && !(codigo >= 0xd800 && codigo <= 0xdfff);
      const caracter = valido ? String.fromCodePoint(codigo) : '';
      return caracter && !CONTROL.test(caracter) ? caracter : '';
    }
    return ENTIDADES[nombre] ?? entera;
  });
}

/**
 * Whole tags (WebVTT's and SRT's HTML-like ones, WebVTT's timestamps) and ASS override codes such
 * as `{\an8}`. A '<' that starts no tag ('3 < 5') is text, as SRT players show it.
 */
const ETIQUETA = /<\/?[A-Za-z][^<>\n]*>|<\d[\d:.]*>|\{\\[^}\n]*\}/g;

/** A cue line as people read it: no markup, entities decoded, spaces collapsed. */
function plano(linea: string): string {
  return decodificarEntidades(linea.replace(ETIQUETA, ''))
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

const escapar = (texto: string) => texto.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const ETIQUETAS_VTT = new Set(['b', 'i', 'u', 'c', 'v', 'lang', 'ruby', 'rt']);

/** A tag kept in the WebVTT served: a known name, safe class names, an annotation of plain words. */
function etiquetaSegura(etiqueta: string): string {
  const m = /^<(\/?)([A-Za-z]+)((?:\.[^\s.>]*)*)(?:[ \t]+([^>]*))?>$/.exec(etiqueta);
  const nombre = m?.[2]?.toLowerCase();
  if (!m || !nombre || !ETIQUETAS_VTT.has(nombre)) return '';
  if (m[1]) return `</${nombre}>`;
  const clases = (m[3] ?? '')
    .split('.')
    .filter((c) => /^[A-Za-z0-9_-]{1,32}$/.test(c))
    .map((c) => `.${c}`)
    .join('');
  const anotacion = nombre === 'v' || nombre === 'lang' ? plano(m[4] ?? '').slice(0, 64) : '';
  return `<${nombre}${clases}${anotacion ? ` ${escapar(anotacion)}` : ''}>`;
}

/** A cue line for the WebVTT served: known tags rewritten, everything else as escaped text. */
function marcado(linea: string): string {
  let resultado = '';
  let desde = 0;
  for (const m of linea.matchAll(ETIQUETA)) {
    resultado += escapar(decodificarEntidades(linea.slice(desde, m.index)));
    if (m[0].startsWith('<') && m[0].endsWith('>')) resultado += etiquetaSegura(m[0]);
    desde = m.index + m[0].length;
  }
  resultado += escapar(decodificarEntidades(linea.slice(desde)));
  return resultado.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** The cue settings WebVTT defines, with values it allows; the rest (regions included) dropped. */
const AJUSTES: RegExp[] = [
  /^vertical:(?:rl|lr)$/,
  /^line:(?:-?\d{1,3}|\d{1,3}(?:\.\d{1,3})?%)(?:,(?:start|center|end))?$/,
  /^position:\d{1,3}(?:\.\d{1,3})?%(?:,(?:line-left|center|line-right))?$/,
  /^size:\d{1,3}(?:\.\d{1,3})?%$/,
  /^align:(?:start|center|end|left|right)$/,
];

function ajustesSeguros(ajustes: string): string {
  return ajustes
    .split(/[ \t]+/)
    .filter((a) => AJUSTES.some((r) => r.test(a)))
    .filter((a) => !/\d%/.test(a) || Number(/(\d+(?:\.\d+)?)%/.exec(a)?.[1]) <= 100)
    .join(' ');
}

// ---- The whole -------------------------------------------------------------------------------

/**
 * The file read, checked and rewritten; `nombre` (the uploaded name) only makes a refusal's
 * message more helpful. Throws SubtituloInvalido.
 */
export function leerSubtitulo(bytes: Uint8Array, nombre = ''): SubtituloLeido {
  try {
    return leer(bytes);
  } catch (error) {
    if (error instanceof SubtituloInvalido && nombre && !/\.(vtt|srt)$/i.test(nombre.trim())) {
      throw new SubtituloInvalido(`${error.motivo} Los subtítulos deben ser un archivo .vtt o .srt.`);
    }
    throw error;
  }
}

function leer(bytes: Uint8Array): SubtituloLeido {
  const { texto: contenido, codificacion } = aTexto(bytes);
  const { formato, cues } = leerCues(contenido);
  if (cues.length === 0) {
    throw new SubtituloInvalido('El archivo no tiene ningún subtítulo con sus tiempos (por ejemplo, 00:00:01.000 --> 00:00:04.000).');
  }
  const conTexto = cues
    .map((c) => {
      const legibles = c.lineas.filter((l) => plano(l) !== '');
      return { ...c, planas: legibles.map(plano), marcadas: legibles.map(marcado) };
    })
    .filter((c) => c.planas.length > 0)
    // Stable: cues that start together keep the file's order.
    .sort((a, b) => a.inicio - b.inicio || a.fin - b.fin);
  if (conTexto.length === 0) throw new SubtituloInvalido('Los subtítulos del archivo no tienen texto.');
  const lineas = conTexto.map((c) => ({ inicio: c.inicio / 1000, fin: c.fin / 1000, texto: c.planas.join(' ') }));
  const vtt = [
    'WEBVTT',
    '',
    ...conTexto.flatMap((c) => {
      const ajustes = formato === 'vtt' ? ajustesSeguros(c.ajustes) : '';
      return [`${formatoTiempo(c.inicio)} --> ${formatoTiempo(c.fin)}${ajustes ? ` ${ajustes}` : ''}`, ...c.marcadas, ''];
    }),
  ].join('\n');
  return { formato, codificacion, lineas, texto: lineas.map((l) => l.texto).join('\n'), vtt };
}

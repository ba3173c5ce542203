/**
 * Every UI text docs/SPEC.md fixes is still in src/, word for word (issue 33, 'Words').
 *
 * SPEC's texts are requirements, also where they say 'usted', lack an accent or an opening '¡'.
 * A words pass over our own texts must never reword one of them: this test reads SPEC's quoted
 * texts out of docs/SPEC.md itself (so a text added there is checked without touching this file),
 * adds the few SPEC names bare in its prose (buttons, menu items, options), and looks for each in
 * the source of the pages, islands, validation schemas and server messages, comments left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const RAIZ = join(import.meta.dirname, '../..');

/** SPEC's own text: after the repository's header comment, before the table of later decisions. */
function textoSpec(): string {
  const archivo = readFileSync(join(RAIZ, 'docs/SPEC.md'), 'utf8');
  const sinCabecera = archivo.replace(/^<!--[\s\S]*?-->\s*/, '');
  const fin = sinCabecera.indexOf('\n---\n');
  return fin === -1 ? sinCabecera : sinCabecera.slice(0, fin);
}

/**
 * SPEC marks the texts a person reads with single quotes: 'Debe ingresar un correo'. A quote opens
 * after a non-letter and closes before one, so an apostrophe inside a word never opens a text.
 */
function textosCitados(spec: string): string[] {
  const vistos = new Set<string>();
  for (const m of spec.matchAll(/(?<![\p{L}\p{N}])'([^'\n]+?)'(?![\p{L}\p{N}])/gu)) vistos.add(m[1] as string);
  return [...vistos];
}

/**
 * Quoted in SPEC but not a text a person reads: SPEC's own remarks, API values and constants.
 * Each is left out on purpose; a new quoted text in SPEC is checked unless it is named here.
 */
const NO_SON_TEXTOS = new Map<string, string>([
  ['not shown', "SPEC's remark that a behaviour is ours to design"],
  ['admin', 'the group name, a value not a text'],
  ['Profesor', 'the role value compared in code'],
  ['id_material_docente', 'an API value of tipo_recurso'],
  ['id_manual', 'an API value of tipo_recurso'],
  ['like', 'an API value of action'],
  ['remove_like', 'an API value of action'],
  ['fecha', 'an API value of order'],
  ['-1', "the placeholder select's id"],
  ['mil', 'a view-count suffix, checked by tests/unit/formato.test.ts'],
  ['M', 'a view-count suffix, checked by tests/unit/formato.test.ts'],
  ['B', 'a view-count suffix, checked by tests/unit/formato.test.ts'],
  // 'Bienvenido a {product}' is SPEC's shorthand for the next quote, which is checked as a pattern.
  ['Bienvenido a', 'checked through its full form below'],
]);

/**
 * Texts SPEC names bare in its prose (no quotes), which a quote-reader cannot find: buttons,
 * placeholders, options, the menu, the reactions. Listed by hand from sections 2 to 9.
 */
const TEXTOS_EN_PROSA = [
  // /ingresar/ : placeholders and button; reset: Volver.
  'Correo',
  'Contraseña',
  'Ingresar',
  'Volver',
  // /ayuda : subject options and buttons.
  'Sugerencia',
  'Reclamo',
  'Ayuda',
  'Enviar',
  'Cancelar',
  // Buttons on the lists, details and forms.
  'Guardar',
  'Editar',
  'Eliminar',
  'Descargar',
  'Buscar',
  'Limpiar',
  'Contactar',
  'Publicar',
  'Comentar',
  'Borrar',
  'Visualizar',
  // Top bar and side menu.
  'Cerrar Sesión',
  'Inicio',
  'Cápsulas Docentes',
  'Manuales Pedagógicos',
  'Biblioteca Docente',
  'Comunidad Docente',
  'Foro',
  'Perfil',
  // Options: gender, category active select, list order.
  'Masculino',
  'Femenino',
  'Otro',
  'Si',
  'No',
  'Fecha',
  'Número de visitas',
  // The five reactions.
  'Me gusta',
  'Gran idea',
  'Me interesa',
  'Lo utilizaré',
  'Me asombra',
];

/**
 * A text with a variable part ({title}, {name}, {product}) is found as a pattern: its fixed words
 * verbatim around a `${…}` or `{…}` expression, which is how a template literal, JSX or Astro
 * writes it. A limit in a message ('Puede ingresar hasta 100 caracteres') may likewise be written
 * with the limit's constant (`Puede ingresar hasta ${max} caracteres`): the words are checked
 * here, the numbers by the validation and API tests.
 */
const VARIABLE = String.raw`(?:\$\{[^{}]+\}|\{[^{}]+\})`;
const escapar = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patron(texto: string): RegExp {
  const fuente = texto
    .split(/(\{[a-z]+\}|\b\d+\b)/)
    .map((parte, i) => {
      if (i % 2 === 0) return escapar(parte);
      return parte.startsWith('{') ? VARIABLE : `(?:${parte}|${VARIABLE})`;
    })
    .join('');
  return new RegExp(`(?<=['"\`>] ?)${fuente}(?= ?['"\`<])`, 'u');
}

/**
 * Texts a pattern cannot find, each with the fragments that together make SPEC's words and why.
 */
const COMPUESTOS = new Map<string, RegExp[]>([
  // PartesComentario.tsx: `Ver ${respuestas(n)}` with respuestas(n) = `${n} respuestas` (and
  // '1 respuesta' for one, the singular SPEC's 'N' reads as).
  ['Ver N respuestas', [/`Ver \$\{respuestas\(/, /`\$\{n\} respuestas`/]],
  ['Ocultar N respuestas', [/`Ocultar \$\{respuestas\(/, /`\$\{n\} respuestas`/]],
  // Colegios.astro: 'y {resto.length} más'.
  ['y N más', [new RegExp(`>y ${VARIABLE} más<`)]],
  // {field} is the field's name written into each message of the personal-information schema.
  ['Debe ingresar {field}', [/'Debe ingresar un email'/, /'Debe ingresar un telefono'/]],
  // SPEC's 'No hay' of the profile's carousels, followed by what there is none of.
  ['No hay', [/"No hay manuales"/, /"No hay cápsulas"/, /"No hay materiales"/]],
  // The manual upload's loading text, followed by its percentage (SPEC's progress indicator).
  ['Subiendo manual', [/`Subiendo manual… \$\{p\}%`/]],
]);

/** Where a person's texts live; the generated contract types only quote SPEC in their comments. */
const CARPETA = join(RAIZ, 'src');
const EXTENSIONES = /\.(astro|tsx?|html)$/;
const FUERA = new Set(['src/lib/api/schema.d.ts']);

function archivos(carpeta: string): string[] {
  return readdirSync(carpeta, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && EXTENSIONES.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((p) => !FUERA.has(relative(RAIZ, p)));
}

/**
 * The source without its comments (a text only quoted in a comment is not on screen), with every
 * run of whitespace made one space, so JSX text wrapped over two lines still reads as one. A
 * comment opens after a space, a line's start or JSX's '{', never inside 'image/*' or 'https://'.
 */
function sinComentarios(codigo: string): string {
  return codigo
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/(^|[\s{])\/\*[\s\S]*?\*\//g, '$1')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
    .replace(/\s+/g, ' ');
}

const FUENTE = archivos(CARPETA)
  .map((p) => sinComentarios(readFileSync(p, 'utf8')))
  .join('\n');

/**
 * A text is a whole string or a whole element's text: it opens after a quote, backtick or '>' and
 * closes before one, so a bare word such as 'Si' or 'No' is not found inside 'Si la cápsula…'.
 */
function aparece(texto: string): boolean {
  const compuesto = COMPUESTOS.get(texto);
  if (compuesto) return compuesto.every((r) => r.test(FUENTE));
  return patron(texto).test(FUENTE);
}

const citados = textosCitados(textoSpec()).filter((t) => !NO_SON_TEXTOS.has(t));

/** Each letter of a text matches itself with or without its accent: 'categoria' finds 'categoría'. */
const VARIANTES: Record<string, string> = { a: 'aá', e: 'eé', i: 'ií', o: 'oó', u: 'uúü', n: 'nñ' };
const sinAcento = (c: string) => c.normalize('NFD').replace(/\p{M}/gu, '');

function parecidos(texto: string): RegExp {
  const letras = [...texto].map((c) => {
    const v = VARIANTES[sinAcento(c)];
    if (v) return `[${v}]`;
    const V = VARIANTES[sinAcento(c).toLowerCase()];
    return V ? `[${V.toUpperCase()}]` : escapar(c);
  });
  return new RegExp(`¡?${letras.join('')}`, 'gu');
}

/**
 * The same words with an accent added or dropped, or an opening '¡' put before them: a copy of a
 * SPEC text reworded by a words pass while another copy stays as SPEC writes it.
 */
function copiasCambiadas(texto: string, todos: Set<string>): string[] {
  return [...FUENTE.matchAll(parecidos(texto))].map((m) => m[0]).filter((m) => !todos.has(m));
}

describe("SPEC's texts (docs/SPEC.md) are in src/ word for word", () => {
  it('reads the quoted texts out of SPEC', () => {
    // A guard on the reader itself: if SPEC's quoting changed, the list would shrink unnoticed.
    expect(citados.length).toBeGreaterThan(120);
    expect(citados).toContain('Debe ingresar un correo');
    expect(citados).toContain('Hubo un error al crear la conversación. Intenteló más tarde.');
    expect(citados).toContain('Capsula {title} agregada exitosamente!');
    for (const t of NO_SON_TEXTOS.keys()) expect(textosCitados(textoSpec())).toContain(t);
  });

  it.each(citados)('quoted: %s', (texto) => {
    expect(aparece(texto), `'${texto}' is not in src/ as SPEC writes it`).toBe(true);
  });

  it.each(TEXTOS_EN_PROSA)('named in prose: %s', (texto) => {
    expect(aparece(texto), `'${texto}' is not in src/ as SPEC writes it`).toBe(true);
  });

  it('has no copy of a SPEC sentence with its accents or its opening changed', () => {
    // Sentences only: a single word such as 'Capsulas' or 'Si' is also one of our own words.
    const todos = new Set(citados);
    const oraciones = citados.filter((t) => t.includes(' ') && !/\{|\bN\b/.test(t));
    const cambiadas = oraciones.flatMap((t) => copiasCambiadas(t, todos).map((c) => `${t} → ${c}`));
    expect(cambiadas).toEqual([]);
  });
});

/**
 * The list cards' thumbnails: WebP in the two widths a card is drawn at (16:9, the card's frame),
 * under the thumbnail's own URL with `?ancho=`, and the `srcset`/`sizes` that let the browser
 * pick one. Shared by the cards (which build the URLs) and the server (which answers them).
 */

export const ANCHOS_MINIATURA = [320, 640] as const;
export type AnchoMiniatura = (typeof ANCHOS_MINIATURA)[number];

export const altoMiniatura = (ancho: AnchoMiniatura): number => (ancho * 9) / 16;

/**
 * Changes whenever the server starts making different variants (crop, size, quality): it is part
 * of every variant's URL, so browsers that kept the old ones for a year ask again.
 */
export const VERSION_MINIATURAS = '1';

/**
 * The `v` of a variant's URL: the pipeline's version and the content's creation time. An id
 * alone could name another picture after a database is restored or reset; the pair cannot.
 */
export function versionMiniatura(fechaCreacion: string): string {
  const segundos = Math.floor(Date.parse(fechaCreacion) / 1000);
  return `${VERSION_MINIATURAS}-${Number.isFinite(segundos) ? segundos.toString(36) : '0'}`;
}

/** True for a `v` the current pipeline wrote: only such URLs may be kept for a year. */
const VIGENTE = new RegExp(`^${VERSION_MINIATURAS}-[0-9a-z]{1,12}$`);
export const esVersionVigente = (v: string | undefined): boolean => v !== undefined && VIGENTE.test(v);

/** The width asked for in `?ancho=`, or null for a width no variant has. */
export function anchoMiniatura(valor: string): AnchoMiniatura | null {
  return ANCHOS_MINIATURA.find((a) => String(a) === valor) ?? null;
}

/**
 * How wide a card is drawn, from src/styles/contenido.css (one card a row under 768 px; above, cards
 * of at least 15rem with a 1rem gap in a main of at most 72rem) inside the shell of app.css with
 * the menu closed (64 px; 52 px under 768 px and none at 480 px and under; main's padding 1.5rem,
 * 1rem under 768 px). tests/e2e/manuales.test.ts checks it against the drawn cards.
 */
export const SIZES_TARJETA = [
  '(max-width: 480px) calc(100vw - 2rem)',
  '(max-width: 767.98px) calc(100vw - 84px)',
  '(max-width: 863.98px) calc(50vw - 64px)',
  '(max-width: 1119.98px) calc(33.3vw - 48px)',
  '17rem',
].join(', ');

/**
 * The `src` (the small variant) and `srcset` of a thumbnail at `base` (e.g. '/miniaturas/manuales/3/').
 * With the data saver ('Ahorro de datos', issue 20) only the small one: no `srcset` to pick from.
 */
export function fuentesMiniatura(base: string, fechaCreacion: string, ahorro = false): { src: string; srcset?: string } {
  const v = versionMiniatura(fechaCreacion);
  const url = (ancho: AnchoMiniatura) => `${base}?ancho=${ancho}&v=${v}`;
  if (ahorro) return { src: url(320) };
  return { src: url(320), srcset: ANCHOS_MINIATURA.map((a) => `${url(a)} ${a}w`).join(', ') };
}

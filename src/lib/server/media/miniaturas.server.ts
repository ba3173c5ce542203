/**
 * The list cards' thumbnails (issue 15; docs/decisions/0031): beside every stored thumbnail (a
 * PDF's first page, a capsule's poster) two WebP variants in the widths the cards are drawn at,
 * 320x180 and 640x360, named after it: 'manuales/3/miniatura.jpg' has 'manuales/3/miniatura-320-v1.webp'
 * and '-640-v1.webp'. No column records them: the name is derived, so the database is not involved.
 *
 * The pictures are made in a work folder (trabajo.server.ts) and adopted into storage once
 * finished (issue 19), so a variant that is stored is complete; inside the folder each file is
 * still written under a temporary name and renamed, so a failed one is never adopted.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import {
  ANCHOS_MINIATURA,
  type AnchoMiniatura,
  altoMiniatura,
  anchoMiniatura,
  esVersionVigente,
  VERSION_MINIATURAS,
} from '../../format/miniaturas.ts';
import { ApiError } from '../api/errors.server.ts';
import { fileResponse } from '../http/file-response.server.ts';
import type { Storage } from '../storage/storage.server.ts';
import type { HerramientaPdf } from './herramientas.server.ts';
import { renderPrimeraPagina } from './pdf.server.ts';
import { type Etiqueta, placeholderResponse } from './placeholder.server.ts';

/**
 * A variant's key (or path): the thumbnail's without its extension, then the width and the
 * pipeline's version ('miniatura.jpg' -> 'miniatura-320-v1.webp'). With the version in the name,
 * a new pipeline never serves an old picture under its new, year-long URL: until its variants
 * are made, the JPEG stands in, briefly cached.
 */
export const claveVariante = (clave: string, ancho: AnchoMiniatura): string =>
  `${clave.replace(/\.[^./]+$/, '')}-${ancho}-v${VERSION_MINIATURAS}.webp`;

/** A variant of the thumbnail named `base` ('miniatura', 'poster') made by another pipeline version. */
export function esVarianteVieja(nombre: string, base: string): boolean {
  const m = new RegExp(`^${base}-(\\d+)(?:-v([0-9a-z]+))?\\.webp$`).exec(nombre);
  return m !== null && m[2] !== VERSION_MINIATURAS;
}

/** The mark of a file still being written; stored ones were left by versions before issue 19 (regenerar.server.ts removes them). */
export const EN_CURSO = '.intento-';

/** The work folders (trabajo.server.ts) where thumbnails are made before they are adopted. */
export const TRABAJO_MINIATURAS = 'miniaturas-';

/** A page is read from its top (its title); a video frame is cut around its centre. */
export type Encuadre = 'top' | 'centre';

/**
 * The large variant only reaches screens with about two pixels per point, where a lower quality
 * does not show (the first page of a guide: 21 kB at 50, 25 kB at 75).
 */
const CALIDAD: Record<AnchoMiniatura, number> = { 320: 70, 640: 50 };

/** The JPEG of the detail pages and of the thumbnail's old URL: 480 px wide, as before. */
const ANCHO_JPEG = 480;
/** Enough for the large variant without enlarging it. */
const ANCHO_RENDER = 640;

/** Refuses a decompression bomb posing as a poster: no thumbnail source is near this size. */
const MAX_PIXELES = 40_000_000;

const abrir = (fuente: string) => sharp(fuente, { failOn: 'error', limitInputPixels: MAX_PIXELES, animated: false });

async function escribir(imagen: Sharp, destino: string): Promise<void> {
  const tmp = `${destino}${EN_CURSO}${randomUUID()}`;
  try {
    await imagen.toFile(tmp);
    await rename(tmp, destino);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Writes both variants of the picture `fuente` to `destino(ancho)`. */
export async function hacerVariantes(fuente: string, destino: (ancho: AnchoMiniatura) => string, encuadre: Encuadre): Promise<void> {
  await Promise.all(
    ANCHOS_MINIATURA.map((ancho) =>
      escribir(
        abrir(fuente)
          .resize(ancho, altoMiniatura(ancho), { fit: 'cover', position: encuadre })
          .webp({ quality: CALIDAD[ancho], effort: 6 }),
        destino(ancho),
      ),
    ),
  );
}

/**
 * A PDF's thumbnails: page 1 rendered once (poppler or PDF.js), then the JPEG at `jpg` and the variants
 * beside it. False when it cannot be rendered the file (the pages then show a placeholder).
 */
export async function miniaturasPdf(pdf: string, jpg: string, lector?: HerramientaPdf): Promise<boolean> {
  // Beside the thumbnail, in the same work folder, which goes with whatever is left in it.
  const png = `${jpg}${EN_CURSO}${randomUUID()}.png`;
  try {
    if (!(await renderPrimeraPagina(pdf, png, ANCHO_RENDER, lector))) return false;
    await escribir(abrir(png).resize(ANCHO_JPEG).jpeg({ quality: 80, mozjpeg: true }), jpg);
    await hacerVariantes(png, (ancho) => claveVariante(jpg, ancho), 'top');
    return true;
  } finally {
    await rm(png, { force: true });
  }
}

export interface PedidoMiniatura {
  /** The stored thumbnail's key, or null when the content has none (then a placeholder). */
  clave: string | null;
  etiqueta: Etiqueta;
  /** `?ancho=`: absent on the thumbnail's original URL, which still answers the JPEG. */
  ancho?: string | undefined;
  /** `?v=`: a variant asked for by the current pipeline's URL may be kept for a year. */
  v?: string | undefined;
}

const NO_EXISTE = 'No existe una miniatura de ese ancho';

/**
 * The answer of /miniaturas/{capsulas,bdocente,manuales}/{id}/: the JPEG without `ancho` (pages
 * cached before the variants existed), the variant with it. A variant not made yet (content
 * uploaded before them, until `npm run miniaturas` runs) is stood in for by the JPEG, briefly
 * cached, so that URL picks the variant up soon.
 */
export async function responderMiniatura(storage: Storage, pedido: PedidoMiniatura): Promise<Response> {
  const ancho = pedido.ancho === undefined ? undefined : anchoMiniatura(pedido.ancho);
  if (ancho === null) throw new ApiError(404, NO_EXISTE);
  if (!pedido.clave) return placeholderResponse(pedido.etiqueta);
  const jpeg = { key: pedido.clave, contentType: 'image/jpeg' };
  if (ancho === undefined) return fileResponse(storage, { ...jpeg, cacheControl: 'private, max-age=86400' });
  const variante = claveVariante(pedido.clave, ancho);
  if ((await storage.size(variante)) === null) return fileResponse(storage, { ...jpeg, cacheControl: 'private, max-age=300' });
  const cacheControl = esVersionVigente(pedido.v) ? 'private, max-age=31536000, immutable' : 'private, max-age=86400';
  return fileResponse(storage, { key: variante, contentType: 'image/webp', cacheControl });
}

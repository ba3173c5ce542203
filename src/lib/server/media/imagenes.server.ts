/**
 * The one image pipeline for uploads: whatever image arrives is decoded by sharp, turned upright
 * from its EXIF orientation, cut to the sizes each use needs and re-encoded. sharp writes no
 * metadata unless asked, so EXIF (camera, GPS), ICC and XMP are dropped.
 *
 * - Profile photos (docs/SPEC.md section 9): a 200x200 centred square, WebP, in two sizes.
 * - Forum category images: a 640x360 (16:9) crop, in WebP and in JPEG for old browsers.
 */
import sharp from 'sharp';
import { type Sniffed, sniffFile } from './sniff.server.ts';

const FOTO_LADO = 200;
/** Avatars of the top bar (30 px) and author badges, sharp on screens with two pixels per point. */
const FOTO_MIN_LADO = 96;

const CATEGORIA = { ancho: 640, alto: 360 };

/** Refuses decompression bombs: a 40-megapixel photo is already larger than any phone takes. */
const MAX_PIXELES = 40_000_000;

export interface FotoProcesada {
  grande: Buffer;
  min: Buffer;
}

export interface ImagenCategoria {
  webp: Buffer;
  jpg: Buffer;
}

export class ImagenInvalida extends Error {}

interface Recorte {
  ancho: number;
  alto: number;
  /** 'centre' for faces; 'attention' keeps the most striking part of a wide crop. */
  posicion: 'centre' | 'attention';
  /** JPEG has no transparency: transparent pixels become this colour. */
  fondo?: string;
}

/**
 * One pipeline over the file per output rather than one decoded copy: sharp shrinks JPEGs while
 * it decodes them, so a 12-megapixel phone photo never sits whole in memory.
 */
function recortar(archivo: string, { ancho, alto, posicion, fondo }: Recorte) {
  const imagen = sharp(archivo, { limitInputPixels: MAX_PIXELES, failOn: 'error', animated: false })
    .rotate()
    .resize(ancho, alto, { fit: 'cover', position: posicion });
  return fondo ? imagen.flatten({ background: fondo }) : imagen;
}

/** Runs the encodings; anything sharp cannot decode becomes ImagenInvalida. */
async function codificar<T>(encodings: () => Promise<T>): Promise<T> {
  try {
    return await encodings();
  } catch (error) {
    throw new ImagenInvalida(error instanceof Error ? error.message : String(error));
  }
}

/** sharp decodes far more than the uploads allow (GIF, SVG, TIFF...): the bytes say which it is. */
async function exigirTipo(archivo: string, tipos: readonly Sniffed[]) {
  const tipo = await sniffFile(archivo);
  if (!tipos.includes(tipo)) throw new ImagenInvalida(`unexpected file type: ${tipo}`);
}

export function procesarFotoPerfil(archivo: string): Promise<FotoProcesada> {
  const tamano = (lado: number, quality: number) =>
    recortar(archivo, { ancho: lado, alto: lado, posicion: 'centre' }).webp({ quality }).toBuffer();
  return codificar(async () => {
    const [grande, min] = await Promise.all([tamano(FOTO_LADO, 82), tamano(FOTO_MIN_LADO, 80)]);
    return { grande, min };
  });
}

/** A category image must be a JPEG or PNG (docs/SPEC.md section 5) that decodes. */
export async function procesarImagenCategoria(archivo: string): Promise<ImagenCategoria> {
  await exigirTipo(archivo, ['jpeg', 'png']);
  const recorte = () => recortar(archivo, { ...CATEGORIA, posicion: 'attention', fondo: '#ffffff' });
  return codificar(async () => {
    const [webp, jpg] = await Promise.all([
      recorte().webp({ quality: 78 }).toBuffer(),
      recorte().jpeg({ quality: 80, mozjpeg: true }).toBuffer(),
    ]);
    return { webp, jpg };
  });
}

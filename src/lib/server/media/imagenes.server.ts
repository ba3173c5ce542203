/**
 * Profile photos (SPEC.md section 9: a 200x200 crop): whatever image arrives is decoded by sharp,
 * turned upright from its EXIF orientation, cut to a centred square and written as WebP in two
 * sizes. sharp writes no metadata unless asked, so EXIF (camera, GPS), ICC and XMP are dropped.
 */
import sharp from 'sharp';

const FOTO_LADO = 200;
/** Avatars of the top bar (30 px) and author badges, sharp on screens with two pixels per point. */
const FOTO_MIN_LADO = 96;

/** Refuses decompression bombs: a 40-megapixel photo is already larger than any phone takes. */
const MAX_PIXELES = 40_000_000;

export interface FotoProcesada {
  grande: Buffer;
  min: Buffer;
}

export class ImagenInvalida extends Error {}

export async function procesarFotoPerfil(archivo: string): Promise<FotoProcesada> {
  // Two pipelines over the file rather than one decoded copy: sharp shrinks JPEGs while it
  // decodes them, so a 12-megapixel phone photo never sits whole in memory.
  const tamano = (lado: number, quality: number) =>
    sharp(archivo, { limitInputPixels: MAX_PIXELES, failOn: 'error', animated: false })
      .rotate()
      .resize(lado, lado, { fit: 'cover', position: 'centre' })
      .webp({ quality })
      .toBuffer();
  try {
    const [grande, min] = await Promise.all([tamano(FOTO_LADO, 82), tamano(FOTO_MIN_LADO, 80)]);
    return { grande, min };
  } catch (error) {
    throw new ImagenInvalida(error instanceof Error ? error.message : String(error));
  }
}

/**
 * What the upload forms check of a file before sending it (docs/SPEC.md sections 5 and 9), with the
 * exact messages. Free of zod, so the islands import it directly and keep the schemas lazy; the
 * server checks the file's bytes again.
 */

export const VIDEO_INVALIDO = 'El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov';
export const VIDEO_REQUERIDO = 'Debe subir un video';
/** MIME types a browser reports for the allowed videos (docs/SPEC.md section 9). */
const TIPOS_VIDEO = ['video/mp4', 'video/x-msvideo', 'video/avi', 'video/msvideo', 'video/mpeg', 'video/quicktime'] as const;

/** What the browser can check before sending: one allowed video. The server checks the bytes. */
export function validarArchivoVideo(file: { type: string } | undefined | null): string | null {
  if (!file) return VIDEO_REQUERIDO;
  return (TIPOS_VIDEO as readonly string[]).includes(file.type) ? null : VIDEO_INVALIDO;
}

export const MANUAL_INVALIDO = 'El manual no es válido. Debe subir un archivo .pdf';
export const MANUAL_REQUERIDO = 'Debe subir un manual';

/** What the browser can check before sending: one PDF. The server checks the bytes again. */
export function validarArchivoManual(file: { type: string } | undefined | null): string | null {
  if (!file) return MANUAL_REQUERIDO;
  return file.type === 'application/pdf' ? null : MANUAL_INVALIDO;
}

export const MATERIAL_INVALIDO = 'El material no es válido. Debe subir un archivo word, pdf, ppt o excel.';
export const MATERIAL_REQUERIDO = 'Debe subir un material';

/** The allowed extensions and the family each must really be, checked from the bytes. */
export const EXTENSIONES_MATERIAL = {
  pdf: 'pdf',
  doc: 'word',
  docx: 'word',
  docm: 'word',
  dotx: 'word',
  dotm: 'word',
  xls: 'excel',
  xlsx: 'excel',
  xlsm: 'excel',
  xltx: 'excel',
  xltm: 'excel',
  ppt: 'powerpoint',
  pptx: 'powerpoint',
  pptm: 'powerpoint',
  potx: 'powerpoint',
  potm: 'powerpoint',
  ppsx: 'powerpoint',
} as const;
export type ExtensionMaterial = keyof typeof EXTENSIONES_MATERIAL;

/** How each family is named to a person (badges, type pictures, the file hint). */
export const NOMBRES_FAMILIA = { pdf: 'PDF', word: 'Word', excel: 'Excel', powerpoint: 'PowerPoint' } as const;

export function extensionDe(nombre: string): ExtensionMaterial | null {
  const ext = nombre.toLowerCase().split('.').pop() ?? '';
  return ext in EXTENSIONES_MATERIAL ? (ext as ExtensionMaterial) : null;
}

/** What the browser can check before sending. The server checks the bytes again. */
export function validarArchivoMaterial(file: { name: string } | undefined | null): string | null {
  if (!file) return MATERIAL_REQUERIDO;
  return extensionDe(file.name) ? null : MATERIAL_INVALIDO;
}

export const IMAGEN_REQUERIDA = 'Debe subir una imagen para la categoria';
/**
 * Both category forms use this message. docs/SPEC.md shows the teacher-material message on the edit
 * form ('…word, pdf, ppt o excel.'), which would ask an admin for a Word file in place of an image.
 */
export const IMAGEN_INVALIDA = 'El archivo no es válido. Debe subir un archivo png o jpg.';
/** A profile photo whose bytes are no JPG, PNG or WebP (the profile form and its resumable upload). */
export const FOTO_INVALIDA = 'El archivo no es una imagen válida. Debe subir una imagen JPG, PNG o WebP.';
const TIPOS_IMAGEN: readonly string[] = ['image/jpeg', 'image/png'];

/** A forum category's image: what the browser can check before sending (the server reads the bytes again). */
export function validarImagenCategoria(file: { type: string } | undefined | null, requerida: boolean): string | null {
  if (!file) return requerida ? IMAGEN_REQUERIDA : null;
  return TIPOS_IMAGEN.includes(file.type) ? null : IMAGEN_INVALIDA;
}

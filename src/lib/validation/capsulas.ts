/** The capsule upload and edit forms (SPEC.md section 5), shared by the islands and the server. */
import { z } from 'zod';

export const VIDEO_INVALIDO = 'El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov';
export const VIDEO_REQUERIDO = 'Debe subir un video';
/** MIME types a browser reports for the allowed videos (SPEC.md section 9). */
export const TIPOS_VIDEO = ['video/mp4', 'video/x-msvideo', 'video/avi', 'video/msvideo', 'video/mpeg', 'video/quicktime'] as const;

const positivo = (mensaje: string) => z.coerce.number({ error: mensaje }).int(mensaje).positive(mensaje);

export const capsulaSchema = z.object({
  titulo: z
    .string({ error: 'Debe ingresar un título' })
    .trim()
    .min(1, { error: 'Debe ingresar un título', abort: true })
    .max(100, 'Puede ingresar hasta 100 caracteres'),
  descripcion: z
    .string({ error: 'Debe ingresar una descripción' })
    .trim()
    .min(1, { error: 'Debe ingresar una descripción', abort: true })
    .max(1000, 'Puede ingresar hasta 1000 caracteres'),
  id_area: positivo('Debe seleccionar una area'),
  id_metodologia: positivo('Debe seleccionar una metodologia'),
  id_nivel: z
    .string({ error: 'Debe seleccionar un nivel' })
    .trim()
    .refine((v) => v !== '' && v !== '-1' && v !== '0' && v.length <= 10, 'Debe seleccionar un nivel'),
});
export type CapsulaInput = z.infer<typeof capsulaSchema>;

export const capsulaEdicionSchema = capsulaSchema.extend({
  id: z.coerce.number({ error: 'Cápsula no válida' }).int('Cápsula no válida').positive('Cápsula no válida'),
});
export type CapsulaEdicionInput = z.infer<typeof capsulaEdicionSchema>;

/** What the browser can check before sending: one allowed video. The server checks the bytes. */
export function validarArchivoVideo(file: { type: string } | undefined | null): string | null {
  if (!file) return VIDEO_REQUERIDO;
  return (TIPOS_VIDEO as readonly string[]).includes(file.type) ? null : VIDEO_INVALIDO;
}

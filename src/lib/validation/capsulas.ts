/** The capsule upload and edit forms (SPEC.md section 5), shared by the islands and the server. */
import { z } from 'zod';

export { TIPOS_VIDEO, VIDEO_INVALIDO, VIDEO_REQUERIDO, validarArchivoVideo } from './archivos.ts';

import { filtroId, filtroNivel, paginacion, texto } from './listas.ts';

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

/** The query string of the capsule list (SPEC.md section 7), shared by the API and the list page. */
export const busquedaCapsulasSchema = z.object({ titulo: texto, area: filtroId, metodologia: filtroId, nivel: filtroNivel, ...paginacion });

/** The teacher-material upload and edit forms (SPEC.md section 5), shared by islands and server. */
import { z } from 'zod';

export {
  EXTENSIONES_MATERIAL,
  type ExtensionMaterial,
  extensionDe,
  MATERIAL_INVALIDO,
  MATERIAL_REQUERIDO,
  validarArchivoMaterial,
} from './archivos.ts';

import { filtroId, filtroNivel, paginacion, texto } from './listas.ts';

const seleccion = (mensaje: string) => z.coerce.number({ error: mensaje }).int(mensaje).positive(mensaje);

export const materialSchema = z.object({
  id_area: seleccion('Debe ingresar una area'),
  id_nivel: z
    .string({ error: 'Debe ingresar un nivel' })
    .trim()
    .refine((v) => v !== '' && v !== '-1' && v !== '0' && v.length <= 10, 'Debe ingresar un nivel'),
  id_unidad: seleccion('Debe ingresar una unidad'),
  oas: z
    .union([z.array(z.coerce.number()), z.coerce.number()], { error: 'Debe ingresar al menos un OA' })
    .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).filter((n) => Number.isSafeInteger(n) && n > 0))])
    .refine((v) => v.length > 0, 'Debe ingresar al menos un OA')
    .refine((v) => v.length <= 30, 'Puede seleccionar hasta 30 OA'),
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
  tipo_material_docente: seleccion('Debe especificar el tipo de material docente'),
});
export type MaterialInput = z.infer<typeof materialSchema>;

export const materialEdicionSchema = materialSchema.extend({
  id: z.coerce.number({ error: 'Material no válido' }).int('Material no válido').positive('Material no válido'),
});
export type MaterialEdicionInput = z.infer<typeof materialEdicionSchema>;

/** The query string of the library list (SPEC.md section 7), shared by the API and the list page. */
export const busquedaMaterialesSchema = z.object({
  titulo: texto,
  tipo_material_docente: filtroId,
  id_nivel: filtroNivel,
  id_area: filtroId,
  id_unidad: filtroId,
  oa: filtroId,
  ...paginacion,
});

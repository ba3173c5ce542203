/** The teacher-material upload and edit forms (SPEC.md section 5), shared by islands and server. */
import { z } from 'zod';

export const MATERIAL_INVALIDO = 'El material no es válido. Debe subir un archivo word, pdf, ppt o excel.';
export const MATERIAL_REQUERIDO = 'Debe subir un material';

/** The allowed extensions (issue 5) and the family each must really be, checked from the bytes. */
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

export function extensionDe(nombre: string): ExtensionMaterial | null {
  const ext = nombre.toLowerCase().split('.').pop() ?? '';
  return ext in EXTENSIONES_MATERIAL ? (ext as ExtensionMaterial) : null;
}

/** What the browser can check before sending. The server checks the bytes again. */
export function validarArchivoMaterial(file: { name: string } | undefined | null): string | null {
  if (!file) return MATERIAL_REQUERIDO;
  return extensionDe(file.name) ? null : MATERIAL_INVALIDO;
}

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

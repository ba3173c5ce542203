/** The manual upload and edit forms (SPEC.md section 5), shared by the islands and the server. */
import { z } from 'zod';

export { MANUAL_INVALIDO, MANUAL_REQUERIDO, validarArchivoManual } from './archivos.ts';

import { filtroId, paginacion, texto } from './listas.ts';

const titulo = z
  .string({ error: 'Debe ingresar un título' })
  .trim()
  .min(1, { error: 'Debe ingresar un título', abort: true })
  .max(150, 'Puede ingresar hasta 150 caracteres');
const descripcion = z
  .string({ error: 'Debe ingresar una descripción' })
  .trim()
  .min(1, { error: 'Debe ingresar una descripción', abort: true })
  .max(1000, 'Puede ingresar hasta 1000 caracteres');

/** The area select: 'Seleccionar' (-1 or 0) is not an area. */
const idArea = z.coerce.number({ error: 'Debe ingresar una area' }).int('Debe ingresar una area').positive('Debe ingresar una area');

export const manualSchema = z.object({ titulo, descripcion, id_area: idArea });
export type ManualInput = z.infer<typeof manualSchema>;

/** The edit form sends the area's name (SPEC.md section 7) or its id. */
export const manualEdicionSchema = z.object({
  id: z.coerce.number({ error: 'Manual no válido' }).int('Manual no válido').positive('Manual no válido'),
  titulo,
  descripcion,
  id_area: z
    .union([z.number(), z.string()], { error: 'Debe ingresar una area' })
    .transform((v) => String(v).trim())
    .refine((v) => v !== '' && v !== '-1' && v !== '0' && v !== 'Seleccionar', 'Debe ingresar una area'),
});
export type ManualEdicionInput = z.infer<typeof manualEdicionSchema>;

/** The query string of the manual list (SPEC.md section 7), shared by the API and the list page. */
export const busquedaManualesSchema = z.object({ titulo: texto, area: filtroId, ...paginacion });

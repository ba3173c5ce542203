/** The manual upload and edit forms (docs/SPEC.md section 5), shared by the islands and the server. */
import { z } from 'zod';

export { MANUAL_INVALIDO, MANUAL_REQUERIDO } from './archivos.ts';

import { descripcion, esId, idPositivo, titulo } from './campos.ts';
import { camposPublicacion, publicoConLicenciaAbierta } from './licencias.ts';
import { filtroId, paginacion, texto } from './listas.ts';
import { cadena } from './texto.ts';

export const manualSchema = z
  .object({ titulo: titulo(150), descripcion, id_area: idPositivo('Debe ingresar una area'), ...camposPublicacion })
  .superRefine(publicoConLicenciaAbierta);
export type ManualInput = z.infer<typeof manualSchema>;

/** The edit form sends the area's name (docs/SPEC.md section 7) or its id. */
export const manualEdicionSchema = z
  .object({
    id: idPositivo('Manual no válido'),
    titulo: titulo(150),
    descripcion,
    id_area: z
      .union([z.number(), cadena()], { error: 'Debe ingresar una area' })
      .transform((v) => String(v).trim())
      .refine((v) => v !== '' && v !== '-1' && v !== '0' && v !== 'Seleccionar', 'Debe ingresar una area')
      // An id must fit the database; a name is looked up as it is.
      .refine((v) => !/^\d+$/.test(v) || esId(Number(v)), 'Debe ingresar una area'),
    ...camposPublicacion,
  })
  .superRefine(publicoConLicenciaAbierta);
export type ManualEdicionInput = z.infer<typeof manualEdicionSchema>;

/** The query string of the manual list (docs/SPEC.md section 7), shared by the API and the list page. */
export const busquedaManualesSchema = z.object({ titulo: texto, area: filtroId, ...paginacion });

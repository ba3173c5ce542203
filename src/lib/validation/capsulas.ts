/** The capsule upload and edit forms (docs/SPEC.md section 5), shared by the islands and the server. */
import { z } from 'zod';

export { VIDEO_INVALIDO, VIDEO_REQUERIDO } from './archivos.ts';

import { codigoNivel, descripcion, idPositivo, titulo } from './campos.ts';
import { camposPublicacion, publicoConLicenciaAbierta } from './licencias.ts';
import { filtroId, filtroNivel, paginacion, texto } from './listas.ts';

const camposCapsula = z.object({
  titulo: titulo(100),
  descripcion,
  id_area: idPositivo('Debe seleccionar una area'),
  id_metodologia: idPositivo('Debe seleccionar una metodologia'),
  id_nivel: codigoNivel('Debe seleccionar un nivel'),
  ...camposPublicacion,
});
export const capsulaSchema = camposCapsula.superRefine(publicoConLicenciaAbierta);
export type CapsulaInput = z.infer<typeof capsulaSchema>;

export const capsulaEdicionSchema = camposCapsula.extend({ id: idPositivo('Cápsula no válida') }).superRefine(publicoConLicenciaAbierta);
export type CapsulaEdicionInput = z.infer<typeof capsulaEdicionSchema>;

/** The query string of the capsule list (docs/SPEC.md section 7), shared by the API and the list page. */
export const busquedaCapsulasSchema = z.object({ titulo: texto, area: filtroId, metodologia: filtroId, nivel: filtroNivel, ...paginacion });

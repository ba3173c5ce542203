/** The teacher-material upload and edit forms (docs/SPEC.md section 5), shared by islands and server. */
import { z } from 'zod';

export { EXTENSIONES_MATERIAL, type ExtensionMaterial, extensionDe, MATERIAL_INVALIDO, MATERIAL_REQUERIDO } from './archivos.ts';

import { codigoNivel, descripcion, esId, idPositivo, numeroDe, titulo } from './campos.ts';
import { camposPublicacion, publicoConLicenciaAbierta } from './licencias.ts';
import { filtroId, filtroNivel, paginacion, texto } from './listas.ts';

const camposMaterial = z.object({
  id_area: idPositivo('Debe ingresar una area'),
  id_nivel: codigoNivel('Debe ingresar un nivel'),
  id_unidad: idPositivo('Debe ingresar una unidad'),
  // One OA or several (a form repeats the field); ids that cannot exist are dropped.
  oas: z
    .unknown()
    .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).map(numeroDe).filter(esId))])
    .refine((v) => v.length > 0, 'Debe ingresar al menos un OA')
    .refine((v) => v.length <= 30, 'Puede seleccionar hasta 30 OA'),
  titulo: titulo(100),
  descripcion,
  tipo_material_docente: idPositivo('Debe especificar el tipo de material docente'),
  ...camposPublicacion,
});
export const materialSchema = camposMaterial.superRefine(publicoConLicenciaAbierta);
export type MaterialInput = z.infer<typeof materialSchema>;

export const materialEdicionSchema = camposMaterial.extend({ id: idPositivo('Material no válido') }).superRefine(publicoConLicenciaAbierta);
export type MaterialEdicionInput = z.infer<typeof materialEdicionSchema>;

/** The query string of the library list (docs/SPEC.md section 7), shared by the API and the list page. */
export const busquedaMaterialesSchema = z.object({
  titulo: texto,
  tipo_material_docente: filtroId,
  id_nivel: filtroNivel,
  id_area: filtroId,
  id_unidad: filtroId,
  oa: filtroId,
  ...paginacion,
});

export const COBERTURA_AREA_REQUERIDA = 'Debe seleccionar una area';

/**
 * The curriculum map's query (issue 21): GET /api/bdocente/cobertura/ and /biblioteca-docente/mapa.
 * The area is required; the level narrows the answer to one row and its OAs.
 */
export const coberturaSchema = z.object({
  area: idPositivo(COBERTURA_AREA_REQUERIDA),
  nivel: filtroNivel,
});
export type CoberturaInput = z.infer<typeof coberturaSchema>;

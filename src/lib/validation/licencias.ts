/**
 * The licence and visibility fields of the upload and edit forms (issue 34, decision 0067), over
 * the list of licences in ../licencias.ts (re-exported here for the server).
 */
import { z } from 'zod';
import { CODIGOS_LICENCIA, esAbierta, VISIBILIDADES } from '../licencias.ts';

export * from '../licencias.ts';

export const LICENCIA_NO_VALIDA = 'Licencia no válida';
export const PUBLICO_SIN_LICENCIA =
  'Para que cualquier persona lo vea, elige una licencia Creative Commons o CC0: con todos los derechos reservados solo lo ve la red';

export const licencia = z.enum(CODIGOS_LICENCIA, { error: LICENCIA_NO_VALIDA });
export const visibilidad = z.enum(VISIBILIDADES, { error: "Visibilidad no válida: use 'red' o 'publico'" });

/**
 * The two fields of the upload and edit forms. Both may be left out: an upload then takes the
 * network's default licence and 'red', an edit keeps what the item has.
 */
export const camposPublicacion = { licencia: licencia.optional(), visibilidad: visibilidad.optional() };

/** The one rule between them: only an open licence may be public (checked again on the stored values by the server). */
export const publicoConLicenciaAbierta = (v: { licencia?: string | undefined; visibilidad?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.visibilidad === 'publico' && v.licencia !== undefined && !esAbierta(v.licencia))
    ctx.addIssue({ code: 'custom', message: PUBLICO_SIN_LICENCIA, path: ['visibilidad'] });
};

/** The admin's default-licence form (/admin/licencias) and PUT /api/admin/licencia/. */
export const licenciaPorDefectoSchema = z.object({ licencia });

/**
 * The validation of the profile modals, deferred (../comun/validacion.ts): zod arrives in its own
 * chunk when a form opens, not with the page.
 */
import { validacionDiferida } from '../comun/validacion';

export const validacionDatos = validacionDiferida(() => import('./resolvers').then((m) => m.datos));
export const validacionEspecialidad = validacionDiferida(() => import('./resolvers').then((m) => m.especialidad));
export const validacionArea = validacionDiferida(() => import('./resolvers').then((m) => m.area));
export const validacionNivel = validacionDiferida(() => import('./resolvers').then((m) => m.nivel));

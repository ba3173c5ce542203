/**
 * The react-hook-form resolvers of the profile modals, from the shared zod schemas of
 * src/lib/validation/perfil.ts. Loaded lazily (see ../comun/validacion.ts): zod stays out of the
 * page's first scripts.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { areaPerfilSchema, datosPersonalesSchema, eleccionEspecialidadSchema, nivelPerfilSchema } from '../../lib/validation/perfil';

export const datos = zodResolver(datosPersonalesSchema);
export const especialidad = zodResolver(eleccionEspecialidadSchema);
export const area = zodResolver(areaPerfilSchema);
export const nivel = zodResolver(nivelPerfilSchema);

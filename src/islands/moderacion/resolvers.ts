/** The report form's resolver, from the shared zod schema; loaded lazily (../comun/validacion.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { denunciaSchema } from '../../lib/validation/denuncias';

export const denuncia = zodResolver(denunciaSchema);

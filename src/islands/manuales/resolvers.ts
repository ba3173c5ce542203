/** The manual form's resolver, from the shared zod schema; loaded lazily (../comun/validacion.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { manualSchema } from '../../lib/validation/manuales';

export const manual = zodResolver(manualSchema);

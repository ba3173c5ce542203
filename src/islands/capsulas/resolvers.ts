/** The capsule form's resolver, from the shared zod schema; loaded lazily (../comun/validacion.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { capsulaSchema } from '../../lib/validation/capsulas';

export const capsula = zodResolver(capsulaSchema);

/** The contact form's resolver, from the shared zod schema; loaded lazily (../comun/validacion.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { contactoSchema } from '../../lib/validation/cuentas';

export const contacto = zodResolver(contactoSchema);

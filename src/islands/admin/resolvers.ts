/** The invitation form's resolver, from the schema the CLI and the API use; loaded lazily (../comun/validacion.ts). */
import { zodResolver } from '@hookform/resolvers/zod';
import { invitacionSchema } from '../../lib/validation/invitacion';

export const invitacion = zodResolver(invitacionSchema);

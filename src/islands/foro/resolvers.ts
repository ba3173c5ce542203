/**
 * The forum forms' resolvers, from the shared schemas of src/lib/validation/foro.ts; loaded lazily
 * (../comun/validacion.ts).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { categoriaEdicionSchema, categoriaSchema, conversacionSchema } from '../../lib/validation/foro';

export const conversacion = zodResolver(conversacionSchema);
export const categoria = zodResolver(categoriaSchema);
/** The same form as creating (the description always comes, maybe empty), judged by the edit rules. */
export const categoriaEdicion = zodResolver(z.preprocess((v: z.input<typeof categoriaSchema>) => v, categoriaEdicionSchema));

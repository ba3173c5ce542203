/** Comments on capsules, materials and manuals (SPEC.md section 5). */
import { z } from 'zod';

export const comentarioSchema = z.object({
  contenido: z
    .string({ error: 'Debe ingresar un comentario' })
    .trim()
    .min(1, 'Debe ingresar un comentario')
    .max(2000, 'Puede ingresar hasta 2000 caracteres'),
});

/** Comments on capsules, materials and manuals (docs/SPEC.md section 5). */
import { z } from 'zod';
import { cadena } from './texto.ts';

export const comentarioSchema = z.object({
  contenido: cadena({ error: 'Debe ingresar un comentario' })
    .trim()
    .min(1, 'Debe ingresar un comentario')
    .max(2000, 'Puede ingresar hasta 2000 caracteres'),
});

/** Comments on capsules, materials and manuals (docs/SPEC.md section 5). */
import { z } from 'zod';
import { idPositivo } from './campos.ts';
import { cadena } from './texto.ts';

export const comentarioSchema = z.object({
  contenido: cadena({ error: 'Debe ingresar un comentario' })
    .trim()
    .min(1, 'Debe ingresar un comentario')
    .max(2000, 'Puede ingresar hasta 2000 caracteres'),
});

/** Top-level comments in a thread's first page, and the most one page may ask for (issue 36). */
export const LIMITE_HILO = 20;
const LIMITE_HILO_MAX = 100;

/**
 * A page of a thread (issue 36): `limite` top-level comments (LIMITE_HILO when absent or out of
 * range) that come after the comment `antes` newest first, each with all its replies.
 */
export const paginaHiloSchema = z.object({
  limite: z.coerce.number().int().min(1).max(LIMITE_HILO_MAX).catch(LIMITE_HILO),
  antes: idPositivo('Comentario no válido').optional(),
});
export type PaginaHilo = z.output<typeof paginaHiloSchema>;

/**
 * The forum forms' rules: the shared schemas of src/lib/validation/foro.ts. zod is large, so the
 * islands load this module lazily (when the person first reaches a form).
 */
export { categoriaEdicionSchema, categoriaSchema, conversacionSchema } from '../../lib/validation/foro';

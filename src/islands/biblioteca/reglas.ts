/**
 * The material form's rules: the shared schema of src/lib/validation/materiales.ts (SPEC.md
 * section 5's messages). zod is large, so the form loads this module lazily; the file check is
 * zod-free and comes with the form (src/lib/validation/archivos.ts).
 */
import { z } from 'zod';
import { materialSchema } from '../../lib/validation/materiales';

/**
 * The schema, with the curriculum choices read from `cascada` at each check: they change several
 * at once (a new level clears the unit and the OAs), which the form hook's one-field `cambiar`
 * cannot do, so the form keeps them apart and this merges them in.
 */
export const esquemaMaterial = (cascada: () => Record<string, unknown>) =>
  z.preprocess((valores) => ({ ...(valores as Record<string, unknown>), ...cascada() }), materialSchema);

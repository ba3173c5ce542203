/**
 * The query of a thumbnail URL (/miniaturas/{capsulas,bdocente,manuales}/{id}/): `ancho` stays text
 * so that a width no variant has is answered 404 (there is no such picture) rather than 400, and a
 * `v` out of shape only loses the year-long cache.
 */
import { z } from 'zod';

const texto = (v: unknown) => (Array.isArray(v) ? v.join(',') : v);

export const consultaMiniaturaSchema = z.object({
  ancho: z.preprocess(texto, z.string().optional()),
  v: z.preprocess(texto, z.string().max(40).optional()).catch(undefined),
});

/**
 * POST /me-gusta: the like button as a plain form (src/islands/comun/BotonMeGusta.tsx), so it
 * works before its island is live and without JavaScript. Fields: `tipo` (capsula, material,
 * manual), `id`, `add` ('true' to like, 'false' to unlike). Answers 303 to the page the form was
 * on (the Referer, same origin only; Referrer-Policy same-origin sends it), where the count is
 * drawn again from the database. The middleware has already checked that the post comes from this
 * origin and that the person is signed in. A like that fails is silent, as with the island
 * (docs/SPEC.md section 8): the page simply shows the count as it is.
 */
import { z } from 'zod';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { alternar } from './_componentes/volver.ts';

export const prerender = false;

const campos = z.object({
  tipo: z.enum(['capsula', 'material', 'manual']),
  id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/)
    .transform(Number),
  add: z.enum(['true', 'false']).transform((v) => v === 'true'),
});

// Missing or hidden content: the page the person comes back to says so, or shows the count.
export const POST = alternar(campos, (actor, { tipo, id, add }) => getRuntime().api.services.capsulas.recursos.like(tipo, id, actor, add));

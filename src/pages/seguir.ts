/**
 * POST /seguir: 'Seguir' and 'Dejar de seguir' on the OA page, a colleague's profile, a forum
 * category and the curriculum map's level (pages/_componentes/BotonSeguir.astro), and on
 * /perfil/seguimientos, as plain forms: they work without JavaScript, like /guardar. Fields: the
 * target as POST /api/seguimientos/ takes it (`tipo`, and `oa`, `area` + `nivel`, `usuario` or
 * `categoria`) and `add` ('true' to follow, 'false' to stop). Answers 303 to the page the form
 * was on, which draws the button again from the database; a target one may not follow is not
 * followed. The middleware has already checked the origin and the session.
 */
import { z } from 'zod';
import { getRuntime } from '../lib/server/runtime.server.ts';
import { camposSeguimiento, requeridosPorTipo } from '../lib/validation/seguimientos.ts';
import { alternar } from './_componentes/volver.ts';

export const prerender = false;

const campos = camposSeguimiento.extend({ add: z.enum(['true', 'false']).transform((v) => v === 'true') }).superRefine(requeridosPorTipo);

export const POST = alternar(campos, async (actor, { add, ...objetivo }) => {
  const { seguimientos } = getRuntime().api.services;
  if (add) return seguimientos.seguir(actor, objetivo);
  const id = await seguimientos.buscar(actor, objetivo);
  if (id !== null) await seguimientos.dejar(actor, id);
});

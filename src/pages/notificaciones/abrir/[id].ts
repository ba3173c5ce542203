/**
 * GET /notificaciones/abrir/{id}: the link of an unread entry of /notificaciones. Following it
 * marks the entry read (with the unread ones it groups), so the bell's count drops as the person
 * reads, and answers 303 to the item. Marking read is the only effect and repeating it changes
 * nothing. Someone else's or an unknown id leads back to /notificaciones.
 */
import type { APIRoute } from 'astro';
import { getRuntime } from '../../../lib/server/runtime.server.ts';
import { idDe, usuarioDe } from '../../_componentes/paginas.ts';

export const prerender = false;

/** Only this site's own paths: a stored link never sends anyone elsewhere. */
const propio = (enlace: string | null): enlace is string => !!enlace && enlace.startsWith('/') && !enlace.startsWith('//');

export const GET: APIRoute = async ({ params, locals, redirect }) => {
  const usuario = usuarioDe(locals);
  const id = idDe(params.id);
  const enlace = id === null ? null : await getRuntime().api.services.notificaciones.abrir(usuario.id, id);
  return redirect(propio(enlace) ? enlace : '/notificaciones', 303);
};

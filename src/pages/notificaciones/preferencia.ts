/**
 * POST /notificaciones/preferencia: the profile's 'Correos de notificaciones' choice as a plain
 * form (it works without JavaScript). Field `preferencia_correo` (cada_vez, diario, nunca).
 * Answers 303 to the profile's section, where the saved choice is drawn again. The middleware has
 * already checked that the post comes from this origin and that the person is signed in.
 */
import type { APIRoute } from 'astro';
import { getRuntime } from '../../lib/server/runtime.server.ts';
import { preferenciasSchema } from '../../lib/validation/notificaciones.ts';
import { usuarioDe } from '../_componentes/paginas.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, locals, redirect }) => {
  const usuario = usuarioDe(locals);
  const datos = preferenciasSchema
    .pick({ preferencia_correo: true })
    .safeParse(Object.fromEntries(new URLSearchParams((await request.text()).slice(0, 1024))));
  if (!datos.success) return new Response('Solicitud no válida', { status: 400 });
  await getRuntime().api.services.notificaciones.cambiarPreferencias(usuario.id, datos.data);
  return redirect('/perfil/editar?correos=guardado#correos', 303);
};

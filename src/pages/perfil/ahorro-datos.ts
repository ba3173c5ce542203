/**
 * POST /perfil/ahorro-datos: the profile's 'Ahorro de datos' switch as a plain form (it works
 * without JavaScript, like the email preference). Field `ahorro_datos`: the form sends 'false'
 * from a hidden input and then 'true' from the checkbox when it is on; the last one counts.
 * Answers 303 to the profile's section, where the saved choice is drawn again. The middleware has
 * already checked that the post comes from this origin and that the person is signed in.
 */
import type { APIRoute } from 'astro';
import { getRuntime } from '../../lib/server/runtime.server.ts';
import { preferenciasSchema } from '../../lib/validation/notificaciones.ts';
import { usuarioDe } from '../_componentes/paginas.ts';

export const prerender = false;

/** 'true' or 'false' as the boolean; anything else stays text, which the schema refuses. */
const booleano = (valor: string | undefined) => (valor === 'true' ? true : valor === 'false' ? false : valor);

export const POST: APIRoute = async ({ request, locals, redirect }) => {
  const usuario = usuarioDe(locals);
  const valor = new URLSearchParams((await request.text()).slice(0, 1024)).getAll('ahorro_datos').at(-1);
  const datos = preferenciasSchema.pick({ ahorro_datos: true }).safeParse({ ahorro_datos: booleano(valor) });
  if (!datos.success) return new Response('Solicitud no válida', { status: 400 });
  await getRuntime().api.services.notificaciones.cambiarPreferencias(usuario.id, datos.data);
  return redirect('/perfil/editar?ahorro=guardado#ahorro', 303);
};

/**
 * A profile switch saved by a plain form post (it works without JavaScript): 'Ahorro de datos'
 * (issue 20) and 'No aparecer en la comunidad' (issue 31). The form sends 'false' from a hidden
 * input and then 'true' from the checkbox when it is on; the last one counts. Answers 303 to the
 * profile's section, where the saved choice is drawn again. The middleware has already checked
 * that the post comes from this origin and that the person is signed in.
 */
import type { APIRoute } from 'astro';
import { getRuntime } from '../../../lib/server/runtime.server.ts';
import { preferenciasSchema } from '../../../lib/validation/notificaciones.ts';
import { usuarioDe } from '../../_componentes/paginas.ts';

type Interruptor = 'ahorro_datos' | 'oculto_directorio';

/** 'true' or 'false' as the boolean; anything else stays text, which the schema refuses. */
const booleano = (valor: string | undefined) => (valor === 'true' ? true : valor === 'false' ? false : valor);

/** The POST handler of one switch; `volver` is where the profile shows it ('/perfil/editar?…#…'). */
export function guardarInterruptor(campo: Interruptor, volver: string): APIRoute {
  return async ({ request, locals, redirect }) => {
    const usuario = usuarioDe(locals);
    const valor = new URLSearchParams((await request.text()).slice(0, 1024)).getAll(campo).at(-1);
    const esquema =
      campo === 'ahorro_datos' ? preferenciasSchema.pick({ ahorro_datos: true }) : preferenciasSchema.pick({ oculto_directorio: true });
    const datos = esquema.safeParse({ [campo]: booleano(valor) });
    if (!datos.success) return new Response('Solicitud no válida', { status: 400 });
    await getRuntime().api.services.notificaciones.cambiarPreferencias(usuario.id, datos.data);
    return redirect(volver, 303);
  };
}

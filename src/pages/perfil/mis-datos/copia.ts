/**
 * POST /perfil/mis-datos/copia: 'Solicitar una copia de mis datos' as a plain form (it works
 * without JavaScript). Answers 303 back to /perfil/mis-datos, which shows the copy pending, or the
 * refusal's Spanish sentence (one is already being made, too many today). The middleware has
 * already checked that the post comes from this origin and that the person is signed in.
 */
import type { APIRoute } from 'astro';
import { ErrorDeDominio } from '../../../lib/server/errores.server.ts';
import { getRuntime } from '../../../lib/server/runtime.server.ts';
import { actorDe, usuarioDe } from '../../_componentes/paginas.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, redirect }) => {
  const usuario = usuarioDe(locals);
  try {
    await getRuntime().api.services.misDatos.solicitar(actorDe(usuario), usuario.id);
  } catch (error) {
    if (error instanceof ErrorDeDominio && (error.status === 409 || error.status === 429)) {
      return redirect(`/perfil/mis-datos?error=${encodeURIComponent(error.message)}#titulo-copias`, 303);
    }
    throw error;
  }
  return redirect('/perfil/mis-datos?copia=pedida#titulo-copias', 303);
};

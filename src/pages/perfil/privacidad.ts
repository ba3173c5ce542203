/**
 * POST /perfil/privacidad: the profile's 'No aparecer en la comunidad' switch (issue 31, the right
 * of opposition) as a plain form: out of the directory, its search and the contact form.
 */
import { guardarInterruptor } from './_componentes/interruptor.ts';

export const prerender = false;

export const POST = guardarInterruptor('oculto_directorio', '/perfil/editar?privacidad=guardado#privacidad');

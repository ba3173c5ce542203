/** POST /perfil/ahorro-datos: the profile's 'Ahorro de datos' switch (issue 20) as a plain form. */
import { guardarInterruptor } from './_componentes/interruptor.ts';

export const prerender = false;

export const POST = guardarInterruptor('ahorro_datos', '/perfil/editar?ahorro=guardado#ahorro');

/**
 * The sign-in call, in a module of its own: /ingresar/ loads it when the form is first used (with
 * the validation chunk), not with the page, which sits at the 90 kB budget of docs/DESIGN.md.
 */
import { api } from '../../lib/api/client';
import { notificar } from '../../lib/stores/notifications';
import type { UsuarioSesion } from '../../lib/stores/session';
import type { LoginInput } from '../../lib/validation/cuentas';
import { falla, hecho, llamar, mensajeIngreso, type Resultado } from './cuenta';

/** A sign-in's first step: a session, or (an account with a second factor, issue 32) a challenge for the code. */
export type Ingreso = { usuario: UsuarioSesion; desafio?: undefined } | { desafio: string; usuario?: undefined };

export const ingresar = (body: LoginInput) =>
  llamar(async (): Promise<Resultado<Ingreso>> => {
    const { data, error, response } = await api.POST('/auth/login/', { body });
    if (!data) return falla(mensajeIngreso(response.status, error));
    if ('segundo_factor' in data) return hecho({ desafio: data.desafio });
    // Signing in cancelled a scheduled deletion (issue 31): said on the page the person lands on.
    if (data.aviso) notificar(data.aviso, 'info');
    return hecho({ usuario: data.usuario });
  }, mensajeIngreso(null));

/**
 * The account calls of the public screens and the Spanish messages of docs/SPEC.md section 8 that
 * each status maps to. The islands only render what these return.
 */
import { api, renovarSesion } from '../../lib/api/client';
import { notificar } from '../../lib/stores/notifications';
import { cerrarSesion, comprobarSesion, type UsuarioSesion } from '../../lib/stores/session';
import type { ActivacionInput, LoginInput, NuevaContrasenaInput, RecuperarCuentaInput } from '../../lib/validation/cuentas';
import type { SegundoFactorInput } from '../../lib/validation/segundo-factor';

export type Resultado<T = undefined> = { ok: true; valor: T } | { ok: false; mensaje: string };

/** `null` stands for "no response" (the request never reached the server). */
type Estado = number | null;

const TOKEN_INVALIDO = 'Token inválido o expirado';
const CREDENCIALES = 'Usuario y/o contraseña incorrectos';
/** Not in docs/SPEC.md: a sign-in that never reached the server must not blame the password. */
const SIN_CONEXION = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.';

export function mensajeIngreso(estado: Estado, error?: { detail?: string; non_field_errors?: string[] }): string {
  if (estado === null) return SIN_CONEXION;
  if (estado === 429 && error?.detail) return error.detail;
  return error?.non_field_errors?.[0] ?? CREDENCIALES;
}

export function mensajeRecuperacion(estado: Estado, detail?: string): string {
  if (estado === null) return 'Hubo un error, no se pudo enviar el mail';
  if (estado === 404) return 'Usuario no encontrado';
  if (estado === 403) return 'Usuario no activo';
  if (estado === 429 && detail) return detail;
  return 'El email ingresado no es válido';
}

export function mensajeActivacion(estado: Estado): string {
  if (estado === null) return 'Hubo un error, no se pudo activar la cuenta';
  if (estado === 404 || estado === 400) return 'Token no válido';
  return 'No se pudo activar la cuenta';
}

export function mensajeCambio(estado: Estado): string {
  if (estado === null) return 'Hubo un error, no se pudo cambiar la contraseña';
  if (estado === 404 || estado === 400) return 'Token no válido';
  return 'El email ingresado no es válido';
}

/** The token of an emailed link: the path segment after `prefijo`, or the `token` query parameter. */
export function tokenDeEnlace(pathname: string, search: string, prefijo: string): string | null {
  let ruta = pathname;
  try {
    ruta = decodeURIComponent(pathname).normalize('NFC');
  } catch {
    // A malformed address has no usable token anyway.
  }
  const resto = ruta.startsWith(prefijo) ? ruta.slice(prefijo.length).replace(/\/+$/, '') : '';
  const token = resto || new URLSearchParams(search).get('token') || '';
  return /^[\w-]{1,200}$/.test(token) ? token : null;
}

/** docs/SPEC.md section 4: is there a session in this browser (renewal at start)? */
export const haySesion = () => comprobarSesion(renovarSesion);
/** Signs out here and in the other tabs. */
export const salir = () => cerrarSesion(api);

const hecho = <T>(valor: T): Resultado<T> => ({ ok: true, valor });
const falla = (mensaje: string): Resultado<never> => ({ ok: false, mensaje });

/** Runs a call; one that never got an answer gives `sinRespuesta`. */
async function llamar<T>(llamada: () => Promise<Resultado<T>>, sinRespuesta: string): Promise<Resultado<T>> {
  try {
    return await llamada();
  } catch {
    return falla(sinRespuesta);
  }
}

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

/** Why a second step failed: the code (try again) or the challenge (start again with the password). */
export type FalloSegundoFactor = { ok: false; mensaje: string; reiniciar?: boolean };

/** The second step (issue 32): the code of the app or a recovery code, for the challenge of the first. */
export async function completarSegundoFactor(body: SegundoFactorInput): Promise<{ ok: true; valor: UsuarioSesion } | FalloSegundoFactor> {
  try {
    const { data, error, response } = await api.POST('/auth/segundo-factor/', { body });
    if (data) {
      if (data.aviso) notificar(data.aviso, 'info');
      return hecho<UsuarioSesion>(data.usuario);
    }
    const desafio = error?.errors?.desafio?.[0];
    if (desafio) return { ok: false, mensaje: desafio, reiniciar: true };
    return falla(error?.errors?.codigo?.[0] ?? mensajeIngreso(response.status, error));
  } catch {
    return falla(SIN_CONEXION);
  }
}

export const solicitarRecuperacion = (body: RecuperarCuentaInput) =>
  llamar(async () => {
    const { data, error, response } = await api.POST('/api/usuarios/recuperar-cuenta/', { body });
    return data ? hecho(undefined) : falla(mensajeRecuperacion(response.status, error?.detail));
  }, mensajeRecuperacion(null));

/** The email an activation link belongs to; any failure is 'Token inválido o expirado'. */
export const verificarActivacion = (token: string) =>
  llamar(async () => {
    const { data } = await api.GET('/api/usuarios/activar-cuenta/', { params: { query: { token } } });
    return data ? hecho(data.email) : falla(TOKEN_INVALIDO);
  }, TOKEN_INVALIDO);

export const verificarCambio = (token: string) =>
  llamar(async () => {
    const { data } = await api.GET('/api/usuarios/cambiar-contrasena/{token}', { params: { path: { token } } });
    return data ? hecho(data.email) : falla(TOKEN_INVALIDO);
  }, TOKEN_INVALIDO);

/** docs/SPEC.md section 4: 204 or 200 is success. */
export const activarCuenta = (token: string, input: ActivacionInput) =>
  llamar(async () => {
    const { response } = await api.POST('/api/usuarios/activar-cuenta/', { body: { ...input, token } });
    return response.ok ? hecho(undefined) : falla(mensajeActivacion(response.status));
  }, mensajeActivacion(null));

export const cambiarContrasena = (token: string, input: NuevaContrasenaInput) =>
  llamar(async () => {
    const { response } = await api.POST('/api/usuarios/cambiar-contrasena/', { body: { ...input, token } });
    return response.ok ? hecho(undefined) : falla(mensajeCambio(response.status));
  }, mensajeCambio(null));

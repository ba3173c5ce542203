/**
 * The account calls of the public screens and the Spanish messages of docs/SPEC.md section 8 that
 * each status maps to. The islands only render what these return.
 */
import { api, renovarSesion } from '../../lib/api/client';
import { cerrarSesion, comprobarSesion } from '../../lib/stores/session';
import type { ActivacionInput, NuevaContrasenaInput, RecuperarCuentaInput } from '../../lib/validation/cuentas';

export type Resultado<T = undefined> = { ok: true; valor: T } | { ok: false; mensaje: string };

/** `null` stands for "no response" (the request never reached the server). */
type Estado = number | null;

const TOKEN_INVALIDO = 'Token inválido o expirado';
const CREDENCIALES = 'Usuario y/o contraseña incorrectos';
/** Not in docs/SPEC.md: a sign-in that never reached the server must not blame the password. */
export const SIN_CONEXION = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.';

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

export const hecho = <T>(valor: T): Resultado<T> => ({ ok: true, valor });
export const falla = (mensaje: string): Resultado<never> => ({ ok: false, mensaje });

/** Runs a call; one that never got an answer gives `sinRespuesta`. */
export async function llamar<T>(llamada: () => Promise<Resultado<T>>, sinRespuesta: string): Promise<Resultado<T>> {
  try {
    return await llamada();
  } catch {
    return falla(sinRespuesta);
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

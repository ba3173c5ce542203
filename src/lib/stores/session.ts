/**
 * The session as the islands and the shell see it (docs/SPEC.md section 4): loading, then
 * authenticated or unauthenticated. Protected pages start authenticated (the server put the user
 * in the page); public pages start loading and ask the server.
 *
 * The calls take the API client (or its renewal) as an argument: islands have it already, while
 * the shell's plain script (home page, 5 kB budget) loads it only when the person signs out.
 */
import { atom } from 'nanostores';
import type { api as Api, renovarSesion } from '../api/client';
import type { components } from '../api/schema';

/** What the shell and the islands need of the signed-in user. */
export type UsuarioSesion = Pick<components['schemas']['Usuario'], 'id' | 'primer_nombre' | 'apellido_paterno' | 'foto_perfil' | 'groups'>;

export type EstadoSesion = 'cargando' | 'autenticado' | 'no_autenticado';

export interface Sesion {
  estado: EstadoSesion;
  usuario?: UsuarioSesion;
}

/** The id of the JSON script with the user that the shell renders into protected pages. */
export const SESION_ELEMENTO = 'ed-sesion';
/** The localStorage key whose change tells the other tabs that the session ended. */
const AVISO_CIERRE = 'ed-sesion-cerrada';

function sesionDelDocumento(): Sesion {
  const json = typeof document === 'undefined' ? null : document.getElementById(SESION_ELEMENTO)?.textContent;
  if (!json) return { estado: 'cargando' };
  try {
    const usuario: UsuarioSesion = JSON.parse(json);
    return { estado: 'autenticado', usuario };
  } catch {
    return { estado: 'cargando' };
  }
}

export const $sesion = atom<Sesion>(sesionDelDocumento());

export function iniciarSesion(usuario: UsuarioSesion): void {
  $sesion.set({ estado: 'autenticado', usuario });
}

/** A new photo of the signed-in user: the shell's top bar follows the store, so it shows without a reload. */
export function cambiarFotoPerfil(url: string): void {
  const { usuario } = $sesion.get();
  if (usuario) iniciarSesion({ ...usuario, foto_perfil: url });
}

export function marcarNoAutenticado(): void {
  $sesion.set({ estado: 'no_autenticado' });
}

let comprobacion: Promise<boolean> | undefined;

/**
 * docs/SPEC.md section 4 at start: the session is renewed (the client's one renewal in flight, shared
 * with its calls); a new session is recorded, anything else marks unauthenticated at once, with
 * no request when the browser holds no refresh cookie. Resolves to whether there is a session.
 */
export function comprobarSesion(renovar: typeof renovarSesion): Promise<boolean> {
  comprobacion ??= renovar().then((sesion) => {
    if (sesion) iniciarSesion(sesion.usuario);
    else marcarNoAutenticado();
    return Boolean(sesion);
  });
  return comprobacion;
}

/** Ends the session on the server (both cookies cleared) and in every open tab. */
export async function cerrarSesion(api: typeof Api): Promise<boolean> {
  try {
    await api.POST('/auth/logout/', {});
  } catch {
    return false;
  }
  marcarNoAutenticado();
  try {
    localStorage.setItem(AVISO_CIERRE, String(Date.now()));
  } catch {
    // Storage can be unavailable (private mode); the other tabs notice at their next request.
  }
  return true;
}

/** Calls `alCerrar` when another tab of this browser signs out. */
export function escucharCierreEnOtrasPestanas(alCerrar: () => void): void {
  window.addEventListener('storage', (event) => {
    if (event.key === AVISO_CIERRE) {
      marcarNoAutenticado();
      alCerrar();
    }
  });
}

/**
 * 'Ahorro de datos' (issue 20) as the browser keeps it. The person's preference lives in their
 * account (usuarios.ahorro_datos; the profile and the player's switch change it), and pages render
 * with it; the player's switch also writes it here, so the next page knows before the server does
 * (the PUT may still be on its way, or another server may still hold the old one for a few
 * seconds). The stored choice counts only while it differs from the account's: once a page
 * shows the server agrees, it is forgotten, and the profile forgets it whenever it saves, so a
 * change made there is never hidden by an older switch on this device.
 *
 * Also what a player's data saver depends on (read by the player's loader, reproductor.ts).
 */
import { conexionActual } from './conexion.ts';

const CLAVE = 'ed-ahorro-datos';

// localStorage can be blocked (private modes, policies): the account's preference then rules alone.
function leer(): boolean | null {
  try {
    const valor = localStorage.getItem(CLAVE);
    return valor === '1' ? true : valor === '0' ? false : null;
  } catch {
    return null;
  }
}

/** The person's preference on this page, from their account's (`cuenta`) and this device's last switch. */
export function preferenciaAhorro(cuenta: boolean): boolean {
  const local = leer();
  if (local === null) return cuenta;
  if (local === cuenta) olvidarAhorro();
  return local;
}

/** Remembers the player's switch on this device until the account agrees. */
export function recordarAhorro(valor: boolean): void {
  try {
    localStorage.setItem(CLAVE, valor ? '1' : '0');
  } catch {
    // See leer: the account's preference is still saved.
  }
}

/** Forgets this device's switch: the account's preference is the one that counts. */
export function olvidarAhorro(): void {
  try {
    localStorage.removeItem(CLAVE);
  } catch {
    // Nothing stored, or nothing can be.
  }
}

/** What a player's data saver depends on, read from its box (Reproductor.astro) and the browser. */
export interface EstadoAhorro {
  /** The person's own choice: their account's, or this device's last switch. */
  preferencia: boolean;
  /** Save-Data or a slow connection, as the request told the server or the browser tells now. */
  red: boolean;
  /** The signed-in person, whose preference the player's switch saves. */
  idUsuario: number;
}

export function estadoAhorro(caja: HTMLElement): EstadoAhorro {
  return {
    preferencia: preferenciaAhorro(caja.dataset.ahorroCuenta === 'true'),
    red: caja.dataset.ahorroRed === 'true' || conexionActual(),
    idUsuario: Number(caja.dataset.usuario),
  };
}

export const ahorroActivo = (estado: EstadoAhorro): boolean => estado.preferencia || estado.red;

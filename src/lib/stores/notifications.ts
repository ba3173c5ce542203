/**
 * Notifications (toasts): a queue of Spanish messages of which at most 3 show at once
 * (docs/SPEC.md section 2). The rest wait their turn. Errors are announced as alerts, the others as
 * status messages. The queue survives one page change (sessionStorage), so a message given
 * just before a redirect shows on the next page.
 */
import { atom } from 'nanostores';

export type TipoNotificacion = 'exito' | 'error' | 'info';

export interface Notificacion {
  id: number;
  texto: string;
  tipo: TipoNotificacion;
  /** When it was given (ms since the epoch). */
  creada?: number;
}

/** A success or notice given this recently has not been read yet: it goes on to the next page. */
const RECIENTE_MS = 2500;

const MAXIMO_VISIBLES = 3;
const DURACION_MS = 6000;
const CLAVE = 'ed-notificaciones';

function pendientes(): Notificacion[] {
  try {
    const guardadas: unknown = JSON.parse(sessionStorage.getItem(CLAVE) ?? '[]');
    sessionStorage.removeItem(CLAVE);
    return Array.isArray(guardadas) ? guardadas.filter(esNotificacion) : [];
  } catch {
    return [];
  }
}

function esNotificacion(n: unknown): n is Notificacion {
  return typeof n === 'object' && n !== null && 'id' in n && 'texto' in n && 'tipo' in n;
}

export const $notificaciones = atom<Notificacion[]>(typeof window === 'undefined' ? [] : pendientes());
/** The notifications on screen: the first three of the queue. */
export const visibles = (cola: readonly Notificacion[]) => cola.slice(0, MAXIMO_VISIBLES);

let siguienteId = Date.now();
const temporizadores = new Map<number, ReturnType<typeof setTimeout>>();

export function descartar(id: number): void {
  clearTimeout(temporizadores.get(id));
  temporizadores.delete(id);
  $notificaciones.set($notificaciones.get().filter((n) => n.id !== id));
}

export function notificar(texto: string, tipo: TipoNotificacion = 'info'): number {
  const id = siguienteId++;
  $notificaciones.set([...$notificaciones.get(), { id, texto, tipo, creada: Date.now() }]);
  return id;
}

/**
 * Starts the timer of every visible notification that has none yet (a queued one waits its turn).
 * Errors stay until the person closes them, so nobody misses one while reading slowly.
 */
$notificaciones.subscribe((cola) => {
  if (typeof window === 'undefined') return;
  for (const n of visibles(cola)) {
    if (n.tipo !== 'error' && !temporizadores.has(n.id))
      temporizadores.set(
        n.id,
        setTimeout(() => descartar(n.id), DURACION_MS),
      );
  }
});

/**
 * Keeps the queue across a navigation: a toast given just before a redirect, and errors until
 * they are closed. A success already on screen for a while is not shown again on the next page.
 */
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    const ahora = Date.now();
    const cola = $notificaciones.get().filter((n) => n.tipo === 'error' || ahora - (n.creada ?? ahora) < RECIENTE_MS);
    try {
      if (cola.length > 0) sessionStorage.setItem(CLAVE, JSON.stringify(cola));
    } catch {
      // Without storage the queue simply ends with the page.
    }
  });
}

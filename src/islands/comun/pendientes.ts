/**
 * Where a resumable upload is remembered in the browser (issue 18, decision 0041): tus-js-client
 * keeps each unfinished upload's URL in localStorage under `tus::{fingerprint}::{n}`. Our
 * fingerprint names the signed-in person, so on a shared school computer one teacher is never
 * offered another's upload. Plain functions, no tus-js-client: a page reads them before any file
 * is chosen, and only loads the client when there is something to continue.
 */
import type { DestinoSubida } from '../../lib/validation/subidas';

export const ENDPOINT_SUBIDAS = '/api/subidas/';
const PREFIJO = 'tus::';
/** Unfinished uploads expire on the server 24 h after they were created (decision 0041). */
const VIGENCIA_MS = 24 * 60 * 60 * 1000;

/** The file as tus-js-client keys it (name, type, size, date), prefixed with its owner. */
export const huella = (usuario: number, archivo: File) =>
  ['tus-ed', usuario, archivo.name, archivo.type, archivo.size, archivo.lastModified, ENDPOINT_SUBIDAS].join('-');

/** An unfinished upload remembered here. */
export interface Recordada {
  clave: string;
  url: string;
  nombre: string;
  tamano: number;
  creada: number;
}

function leer(clave: string): Recordada | null {
  try {
    const valor = JSON.parse(localStorage.getItem(clave) ?? 'null') as {
      uploadUrl?: unknown;
      size?: unknown;
      creationTime?: unknown;
      metadata?: { filename?: unknown };
    } | null;
    if (typeof valor?.uploadUrl !== 'string' || typeof valor.size !== 'number') return null;
    const creada = Date.parse(String(valor.creationTime));
    return { clave, url: valor.uploadUrl, nombre: String(valor.metadata?.filename ?? ''), tamano: valor.size, creada };
  } catch {
    return null;
  }
}

/** Every key of localStorage, or none where the browser forbids it (private mode, sandbox). */
function claves(): string[] {
  try {
    return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? '');
  } catch {
    return [];
  }
}

/**
 * The person's unfinished uploads for one form, newest first. Entries past the server's 24 h
 * are dropped on the way: their upload is gone.
 */
export function recordadas(usuario: number, destino: DestinoSubida): Recordada[] {
  const propias = `${PREFIJO}tus-ed-${usuario}-`;
  const vigentes: Recordada[] = [];
  for (const clave of claves()) {
    if (!clave.startsWith(propias)) continue;
    let destinoGuardado: unknown;
    try {
      destinoGuardado = JSON.parse(localStorage.getItem(clave) ?? 'null')?.metadata?.destino;
    } catch {
      destinoGuardado = undefined;
    }
    if (destinoGuardado !== destino) continue;
    const r = leer(clave);
    if (r && Date.now() - r.creada < VIGENCIA_MS) vigentes.push(r);
    else olvidarClave(clave);
  }
  return vigentes.sort((a, b) => b.creada - a.creada);
}

/** Whether this very file has an upload to continue (the person picked it again). */
export const esContinuacion = (usuario: number, archivo: File) =>
  claves().some((c) => c.startsWith(`${PREFIJO}${huella(usuario, archivo)}::`));

export function olvidarClave(clave: string): void {
  try {
    localStorage.removeItem(clave);
  } catch {
    // Storage refused: nothing was remembered either.
  }
}

/** The upload's id: the last segment of its URL (/api/subidas/{id}). */
export const idDeUrl = (url: string | null | undefined) => url?.split('/').filter(Boolean).at(-1) ?? '';

/** Forgets every entry of one upload (used by a saved form, cancelled, or gone). */
export function olvidarSubida(id: string): void {
  if (!id) return;
  for (const clave of claves()) if (clave.startsWith(PREFIJO) && idDeUrl(leer(clave)?.url) === id) olvidarClave(clave);
}

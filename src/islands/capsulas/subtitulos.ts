/**
 * The calls of a capsule's captions (issue 20) for the upload form and the edit page: send a
 * caption file for a language (which replaces the one it had) and remove one. They never throw:
 * a refusal answers the server's Spanish sentences for the file and the language, a network
 * failure the form's own.
 */
import { api } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';
import { errorDelArchivo } from '../comun/formularioSubida';
import { multipart } from '../comun/multipart';

export type IdiomaSubtitulo = components['schemas']['IdiomaSubtitulo'];
export type Subtitulo = components['schemas']['Subtitulo'];

/** A language the forms offer: its code and its name ('es', 'Español'). */
export interface OpcionIdioma {
  codigo: IdiomaSubtitulo;
  nombre: string;
}

/** What went wrong, per field of the captions form. */
export interface ErroresSubtitulo {
  archivo?: string | undefined;
  idioma?: string | undefined;
}

export const TEXTOS_SUBTITULOS = {
  noGuardado: 'No se pudieron guardar los subtítulos',
  sinRed: 'No se pudieron enviar los subtítulos. Revisa tu conexión e inténtalo nuevamente.',
  agregado: (idioma: string) => `Subtítulos en ${idioma} guardados`,
  quitado: (idioma: string) => `Subtítulos en ${idioma} quitados`,
  noQuitado: (idioma: string) => `No se pudieron quitar los subtítulos en ${idioma}`,
} as const;

export async function enviarSubtitulo(
  id: number,
  idioma: IdiomaSubtitulo,
  archivo: File,
): Promise<{ ok: true; data: Subtitulo } | { ok: false; errores: ErroresSubtitulo }> {
  try {
    const { data, error, response } = await api.POST('/api/capsulas/{id}/subtitulos/', {
      params: { path: { id } },
      body: { idioma, archivo: archivo.name },
      bodySerializer: () => multipart({ idioma, archivo }),
    });
    if (data) return { ok: true, data };
    // A broken file comes with the rule and the reason ('Los tiempos de la línea 3 no son válidos…'): both are said.
    const motivos = error?.errors?.archivo?.map((m) => m.replace(/\.?$/, '.')).join(' ');
    const archivoMal = motivos || errorDelArchivo(response.status, error) || (response.status === 415 ? error?.detail : undefined);
    const idiomaMal = error?.errors?.idioma?.[0];
    return { ok: false, errores: { archivo: archivoMal ?? (idiomaMal ? undefined : TEXTOS_SUBTITULOS.noGuardado), idioma: idiomaMal } };
  } catch {
    return { ok: false, errores: { archivo: TEXTOS_SUBTITULOS.sinRed } };
  }
}

/** Removes the captions of a language; true once they are gone (or were not there). */
export async function quitarSubtitulo(id: number, idioma: IdiomaSubtitulo): Promise<boolean> {
  try {
    const { response } = await api.DELETE('/api/capsulas/{id}/subtitulos/{idioma}/', { params: { path: { id, idioma } } });
    return response.ok || response.status === 404;
  } catch {
    return false;
  }
}

/**
 * The check in the browser, before sending (the shared schema and limits, in a chunk of their
 * own). Should that chunk not arrive, nothing is said here: the server checks the file anyway.
 */
export const revisarSubtitulo = (archivo: File | null, idioma: string): Promise<ErroresSubtitulo> =>
  import('./revision-subtitulos').then(
    (m) => m.revisarSubtitulo(archivo, idioma),
    () => ({}),
  );

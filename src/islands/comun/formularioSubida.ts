/**
 * What the upload and edit forms of capsules, materials and manuals share (docs/SPEC.md sections 5
 * and 8): the file of the drop zone with its message, and the send with its real percentage, its
 * toast and, on a refusal, the server's messages under their fields.
 */
import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { components } from '../../lib/api/schema';
import { notificar } from '../../lib/stores/notifications';
import type { SubidaReanudable } from './reanudable';

type ErrorApi = components['schemas']['Error'];

/**
 * The server's first message per field, under the fields this form has (`campos`); the others
 * are left out. Focus stays where it is: the toast says what happened.
 */
export function ponerErroresDelServidor<V extends FieldValues>(
  setError: UseFormSetError<V>,
  campos: readonly Path<V>[],
  errores: ErrorApi['errors'],
): void {
  for (const campo of campos) {
    const mensaje = errores?.[campo]?.[0];
    if (mensaje) setError(campo, { type: 'server', message: mensaje });
  }
}

/**
 * The message for the file of a refused upload: its field's, or why the server could not take it
 * (413: too large; 503: a media tool or the storage does not answer; 507: no room on the disk).
 */
export function errorDelArchivo(status: number, error: Partial<ErrorApi> | undefined): string | undefined {
  return error?.errors?.archivo?.[0] ?? (status === 413 || status === 503 || status === 507 ? error?.detail : undefined);
}

/**
 * The chosen file and its message. `revisar` answers what is wrong with a file (or with none),
 * checked in the browser before sending; the server checks the bytes again. The drop zone's id
 * is 'archivo' in every upload form.
 */
export function useArchivo(
  revisar: (archivo: File | null) => string | null | undefined,
  /** The resumable upload told of each pick: a file that continues an earlier upload goes on at once. */
  subida?: { elegido: (archivo: File | null) => void },
) {
  const [archivo, setArchivo] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  return {
    archivo,
    error,
    ponerError: setError,
    /** A file chosen or taken out: taking it out is no error until the form is sent. */
    elegir(nuevo: File | null) {
      const mensaje = nuevo ? (revisar(nuevo) ?? undefined) : undefined;
      setArchivo(nuevo);
      setError(mensaje);
      subida?.elegido(mensaje ? null : nuevo);
    },
    /**
     * The check on submit (a missing file counts): the file when it passes; otherwise null, its
     * message shows and focus goes to the drop zone.
     */
    valido(): File | null {
      const mensaje = revisar(archivo) ?? undefined;
      setError(mensaje);
      if (mensaje) document.getElementById('archivo')?.focus();
      return mensaje === undefined ? archivo : null;
    },
  };
}

/**
 * What the send of an upload form answers (a `subir` answer of any upload path fits it), or that
 * the person cancelled the file's upload (the form goes back to editing, nothing to report).
 */
type Envio = { ok: true } | { ok: false; status: number; error: Partial<ErrorApi> | undefined } | { ok: false; cancelada: true };

/** A tus upload that did not end in an id, as the form's refusal: its message goes under the file. */
export function envioFallido(r: { ok: false; status: number; mensaje: string } | { ok: false; cancelada: true }): Envio {
  return 'cancelada' in r ? r : { ok: false, status: r.status, error: { detail: r.mensaje, errors: { archivo: [r.mensaje] } } };
}

/**
 * A create's send (issue 18): the file goes up with tus, resumable, then `guardar` sends the form
 * naming it by `id_subida`; once saved, the browser forgets the upload.
 */
export function conSubida(
  tus: Pick<SubidaReanudable, 'subir' | 'olvidar' | 'descartarTerminada'>,
  archivo: File,
  guardar: (id: string) => Promise<Envio>,
) {
  return async (onProgreso: (porcentaje: number) => void): Promise<Envio> => {
    const subida = await tus.subir(archivo, onProgreso);
    if (!subida.ok) return envioFallido(subida);
    const respuesta = await guardar(subida.id);
    if (respuesta.ok) tus.olvidar(subida.id);
    // A refusal of the fields (a missing title) leaves the upload for the next try; one of the file does not.
    else if (
      !('cancelada' in respuesta) &&
      (respuesta.error?.errors?.archivo || respuesta.error?.errors?.id_subida || respuesta.status === 404)
    ) {
      tus.olvidar(subida.id);
      tus.descartarTerminada();
    }
    return respuesta;
  };
}

interface Textos {
  /** The toasts and where the person goes once it is saved. */
  exito: string;
  fallo: string;
  destino: string;
}

/**
 * Sends the form. `progreso` is the percentage sent (null when nothing is going); `listo` stays
 * true once saved, while the page leaves. A failure keeps everything written: the server's field
 * messages go under the form's `campos` and the file's to `ponerErrorArchivo`.
 */
export function useSubida<V extends FieldValues>(
  setError: UseFormSetError<V>,
  campos: readonly Path<V>[],
  ponerErrorArchivo: (mensaje: string) => void,
) {
  const [progreso, setProgreso] = useState<number | null>(null);
  const [listo, setListo] = useState(false);

  async function enviar(subida: (onProgreso: (porcentaje: number) => void) => Promise<Envio>, { exito, fallo, destino }: Textos) {
    setProgreso(0);
    const respuesta = await subida(setProgreso);
    if (respuesta.ok) {
      setListo(true);
      notificar(exito, 'exito');
      window.location.assign(destino);
      return;
    }
    setProgreso(null);
    if ('cancelada' in respuesta) return;
    ponerErroresDelServidor(setError, campos, respuesta.error?.errors);
    const errorArchivo = errorDelArchivo(respuesta.status, respuesta.error);
    if (errorArchivo) ponerErrorArchivo(errorArchivo);
    notificar(fallo, 'error');
  }

  return { progreso, listo, enviar };
}

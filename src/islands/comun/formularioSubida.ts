/**
 * What the upload and edit forms of capsules, materials and manuals share (SPEC.md sections 5
 * and 8): the file of the drop zone with its message, and the send with its real percentage, its
 * toast and, on a refusal, the server's messages under their fields.
 */
import { useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { erroresDeCampo, subir } from './subida';

/**
 * The chosen file and its message. `revisar` answers what is wrong with a file (or with none),
 * checked in the browser before sending; the server checks the bytes again. The drop zone's id
 * is 'archivo' in every upload form.
 */
export function useArchivo(revisar: (archivo: File | null) => string | null | undefined) {
  const [archivo, setArchivo] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  return {
    archivo,
    error,
    ponerError: setError,
    /** A file chosen or taken out: taking it out is no error until the form is sent. */
    elegir(nuevo: File | null) {
      setArchivo(nuevo);
      setError(nuevo ? (revisar(nuevo) ?? undefined) : undefined);
    },
    /** The check on submit (a missing file counts); focus goes to the drop zone when it fails. */
    async valido(): Promise<boolean> {
      const mensaje = revisar(archivo) ?? undefined;
      setError(mensaje);
      if (mensaje) document.getElementById('archivo')?.focus();
      return mensaje === undefined;
    },
  };
}

interface Envio {
  /** POST uploads a new file (201); PUT saves an edit, without a file (204). */
  metodo: 'POST' | 'PUT';
  url: string;
  datos: FormData;
  /** The toasts and where the person goes once it is saved. */
  exito: string;
  fallo: string;
  destino: string;
}

const detalleDe = (cuerpo: unknown) =>
  typeof cuerpo === 'object' && cuerpo !== null && 'detail' in cuerpo && typeof cuerpo.detail === 'string' ? cuerpo.detail : undefined;

/**
 * Sends the form. `progreso` is the percentage sent (null when nothing is going); `listo` stays
 * true once saved, while the page leaves. A failure keeps everything written: the server's field
 * messages go to `ponerErrores` (the form keeps its own fields) and the file's to `ponerErrorArchivo`.
 */
export function useSubida(ponerErrores: (mensajes: Record<string, string>) => void, ponerErrorArchivo: (mensaje: string) => void) {
  const [progreso, setProgreso] = useState<number | null>(null);
  const [listo, setListo] = useState(false);

  async function enviar({ metodo, url, datos, exito, fallo, destino }: Envio) {
    setProgreso(0);
    const { status, cuerpo } = await subir({ metodo, url, datos, onProgreso: setProgreso });
    if (status === (metodo === 'POST' ? 201 : 204)) {
      setListo(true);
      notificar(exito, 'exito');
      window.location.assign(destino);
      return;
    }
    setProgreso(null);
    const campos = erroresDeCampo(cuerpo);
    ponerErrores(campos);
    // A file over the limit is refused while it arrives (413): the server's detail says why.
    const errorArchivo = campos.archivo ?? (status === 413 ? detalleDe(cuerpo) : undefined);
    if (metodo === 'POST' && errorArchivo) ponerErrorArchivo(errorArchivo);
    notificar(fallo, 'error');
  }

  return { progreso, listo, enviar };
}

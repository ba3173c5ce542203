/**
 * The tus client of the drop zones (issue 18, decision 0041), in a chunk of its own: pages load
 * it only when a file is chosen or an unfinished upload is offered, never with their first JS.
 *
 * An upload survives a bad connection: tus-js-client retries with growing delays, then this
 * module keeps trying every 30 s for as long as it takes, and at once when the browser says the
 * network is back. It survives a reload too: the upload's URL stays in localStorage under the
 * file's fingerprint (./pendientes.ts), so picking the same file again continues from the
 * server's offset. Each request carries a fresh access token: an upload can outlast the
 * 15-minute token.
 */
import { type DetailedError, type HttpRequest, type HttpResponse, Upload } from 'tus-js-client';
import { renovarSesion, tokenVigente } from '../../lib/api/client';
import type { DestinoSubida } from '../../lib/validation/subidas';
import { ENDPOINT_SUBIDAS, huella, idDeUrl, olvidarClave, olvidarSubida, type Recordada } from './pendientes';

/**
 * 5 MB per PATCH: what a dropped connection can cost in bytes to send again, a few seconds on
 * 4G and under a minute on a weak 3G link; large enough that the request overhead (a few hundred
 * bytes, one round trip) stays negligible, and small enough that the progress moves often.
 */
export const TAMANO_PARTE = 5 * 1024 * 1024;
/** tus-js-client's own retries, growing; past them this module retries every ESPERA_MS. */
const REINTENTOS = [0, 1000, 3000, 5000, 10000, 20000, 30000];
const ESPERA_MS = 30_000;

const SIN_SESION = 'Tu sesión terminó. Ingresa de nuevo y vuelve a elegir el archivo para continuar la subida.';
const FALLO = 'No se pudo subir el archivo. Inténtalo nuevamente.';

export interface Eventos {
  /** Bytes on the server (or on their way) and the file's size. */
  onProgreso(enviados: number, total: number): void;
  /** The connection dropped (true) or works again (false). */
  onRed(sinRed: boolean): void;
  onExito(id: string): void;
  onError(status: number, mensaje: string): void;
}

export interface ControlSubida {
  pausar(): void;
  reanudar(): void;
  /** Stops and deletes the upload on the server (tus termination), and forgets it here. */
  cancelar(): void;
}

const estado = (e: Error | DetailedError) => ('originalResponse' in e ? (e.originalResponse?.getStatus() ?? 0) : 0);

/**
 * The server's own trouble that does not pass in seconds (a media tool, the disk, the bucket,
 * issue 28): its sentence is shown at once, and the upload is kept to continue later.
 */
const sinRecursos = (status: number) => status === 503 || status === 507;

/** Worth another try: no answer (offline, dropped), the server's passing trouble, a busy upload, an old token. */
const reintentable = (status: number) => status === 0 || (status >= 500 && !sinRecursos(status)) || [401, 409, 423].includes(status);

/** The server's Spanish sentence (the API's error shape), else ours. */
function mensajeDe(error: Error | DetailedError, status: number): string {
  if (status === 401 || status === 403) return SIN_SESION;
  try {
    const detalle = JSON.parse(('originalResponse' in error && error.originalResponse?.getBody()) || '{}')?.detail;
    if (typeof detalle === 'string' && detalle) return detalle;
  } catch {
    // Not the API's JSON: our own sentence.
  }
  return FALLO;
}

async function conToken(req: HttpRequest): Promise<void> {
  const token = await tokenVigente();
  if (token) req.setHeader('Authorization', `Bearer ${token}`);
}

async function renovarSiVencio(_req: HttpRequest, res: HttpResponse): Promise<void> {
  // The token died in flight: renewed here, the retry (onShouldRetry) carries the new one.
  if (res.getStatus() === 401) await renovarSesion();
}

/**
 * Starts (or continues, when this person's same file has an upload remembered) the upload of
 * `archivo` for the form `destino`. `usuario` keys the remembered upload; null keeps nothing
 * (a cropped photo cannot be picked again).
 */
export async function iniciarSubida(
  archivo: File | Blob,
  destino: DestinoSubida,
  usuario: number | null,
  eventos: Eventos,
): Promise<ControlSubida> {
  const nombre = archivo instanceof File ? archivo.name : 'archivo';
  let espera: ReturnType<typeof setTimeout> | undefined;
  let detenida = false;
  let sinRed = false;

  const marcarRed = (caida: boolean) => {
    if (caida !== sinRed) eventos.onRed(caida);
    sinRed = caida;
  };
  const esperar = () => {
    clearTimeout(espera);
    espera = setTimeout(() => upload.start(), ESPERA_MS);
  };

  const upload = new Upload(archivo, {
    // Absolute: tus-js-client resolves the Location it gets against it.
    endpoint: new URL(ENDPOINT_SUBIDAS, window.location.origin).href,
    chunkSize: TAMANO_PARTE,
    retryDelays: REINTENTOS,
    metadata: { filename: nombre, filetype: archivo.type, destino },
    fingerprint: async (f) => (usuario !== null && f instanceof File ? huella(usuario, f) : ''),
    storeFingerprintForResuming: usuario !== null,
    // Kept until the form that uses it is saved (olvidarSubida), so a reload in between still continues.
    removeFingerprintOnSuccess: false,
    onBeforeRequest: conToken,
    onAfterResponse: renovarSiVencio,
    onShouldRetry: (error) => {
      const status = estado(error);
      if (status === 0) marcarRed(true);
      return reintentable(status);
    },
    onProgress: (enviados, total) => {
      marcarRed(false);
      eventos.onProgreso(enviados, total);
    },
    onSuccess: () => {
      marcarRed(false);
      quitarEscuchas();
      eventos.onExito(idDeUrl(upload.url));
    },
    onError: (error) => {
      const status = estado(error);
      if (status === 0 || (reintentable(status) && status !== 401)) {
        // Past tus-js-client's retries: keep trying, every ESPERA_MS or when the network is back.
        marcarRed(status === 0 || !navigator.onLine);
        esperar();
        return;
      }
      quitarEscuchas();
      // Refused for good (its bytes are no type the form takes, it expired): the server holds
      // nothing to continue. A session that ended, or a server short of a tool or of room, keeps
      // it, to continue later.
      if (status !== 401 && status !== 403 && !sinRecursos(status)) olvidarSubida(idDeUrl(upload.url));
      eventos.onError(status, mensajeDe(error, status));
    },
  });

  // Back online: continue at once, not at the end of the current wait.
  const alVolver = () => {
    if (detenida || !sinRed) return;
    clearTimeout(espera);
    void upload.abort().then(() => upload.start());
  };
  const alCaer = () => {
    if (!detenida) marcarRed(true);
  };
  window.addEventListener('online', alVolver);
  window.addEventListener('offline', alCaer);
  function quitarEscuchas() {
    window.removeEventListener('online', alVolver);
    window.removeEventListener('offline', alCaer);
  }

  const previa = usuario === null ? undefined : (await upload.findPreviousUploads()).sort(masReciente)[0];
  if (previa) upload.resumeFromPreviousUpload(previa);
  upload.start();

  return {
    pausar() {
      detenida = true;
      clearTimeout(espera);
      void upload.abort();
    },
    reanudar() {
      detenida = false;
      upload.start();
    },
    cancelar() {
      detenida = true;
      clearTimeout(espera);
      quitarEscuchas();
      olvidarSubida(idDeUrl(upload.url));
      // Terminated in the background (retried by tus); an upload it cannot reach expires in 24 h.
      void upload.abort(true).catch(() => undefined);
    },
  };
}

const masReciente = (a: { creationTime: string }, b: { creationTime: string }) => Date.parse(b.creationTime) - Date.parse(a.creationTime);

/** How far a remembered upload got, from the server (HEAD); null when it is gone (then forgotten). */
export async function consultarOffset(recordada: Recordada): Promise<{ enviados: number; total: number } | null | undefined> {
  const headers = new Headers({ 'Tus-Resumable': '1.0.0' });
  const token = await tokenVigente();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await fetch(recordada.url, { method: 'HEAD', headers, cache: 'no-store' });
  } catch {
    return undefined; // No network: it may well be there; the offer goes without a percentage.
  }
  if (res.status === 404 || res.status === 410) {
    olvidarClave(recordada.clave);
    return null;
  }
  const enviados = Number(res.headers.get('upload-offset'));
  const total = Number(res.headers.get('upload-length') ?? recordada.tamano);
  return res.ok && Number.isFinite(enviados) ? { enviados, total } : undefined;
}

/** Cancels a remembered upload the person does not want to continue. */
export function descartar(recordada: Recordada): void {
  olvidarClave(recordada.clave);
  void Upload.terminate(recordada.url, { onBeforeRequest: conToken, retryDelays: [0, 1000, 3000] }).catch(() => undefined);
}

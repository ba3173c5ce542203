/**
 * Sends an upload form (multipart) with the session's Bearer token and reports the real
 * percentage sent (SPEC.md section 4: 'uploading with percentage'). XMLHttpRequest, because fetch
 * cannot report upload progress; the body streams from the file, never read into memory.
 */
import { tokenVigente } from '../../lib/api/client';

export interface RespuestaSubida {
  status: number;
  /** The JSON body, when there was one. */
  cuerpo: unknown;
}

export interface OpcionesSubida {
  metodo: 'POST' | 'PUT';
  url: string;
  datos: FormData;
  /** 0 to 100, as bytes leave the browser. */
  onProgreso?: (porcentaje: number) => void;
}

/** Resolves with the status (0 when the network failed); never rejects. */
export async function subir({ metodo, url, datos, onProgreso }: OpcionesSubida): Promise<RespuestaSubida> {
  const token = await tokenVigente();
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(metodo, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgreso?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      let cuerpo: unknown = null;
      try {
        cuerpo = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        cuerpo = null;
      }
      resolve({ status: xhr.status, cuerpo });
    });
    xhr.addEventListener('error', () => resolve({ status: 0, cuerpo: null }));
    xhr.addEventListener('abort', () => resolve({ status: 0, cuerpo: null }));
    xhr.send(datos);
  });
}

/** The server's field messages of a 400 answer ({ errors: { campo: [mensaje] } }), first per field. */
export function erroresDeCampo(cuerpo: unknown): Record<string, string> {
  const errores = typeof cuerpo === 'object' && cuerpo !== null && 'errors' in cuerpo ? cuerpo.errors : null;
  if (typeof errores !== 'object' || errores === null) return {};
  const mensajes: Record<string, string> = {};
  for (const [campo, lista] of Object.entries(errores)) {
    if (Array.isArray(lista) && typeof lista[0] === 'string') mensajes[campo] = lista[0];
  }
  return mensajes;
}

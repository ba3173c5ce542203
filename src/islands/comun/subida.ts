/**
 * Sends an upload form (multipart) with the session's Bearer token and reports the real
 * percentage sent (docs/SPEC.md section 4: 'uploading with percentage'). XMLHttpRequest, because fetch
 * cannot report upload progress; the body streams from the file, never read into memory.
 *
 * Typed from the contract like the `api` client: the URL is a path of schema.d.ts whose method
 * takes a multipart/form-data body, the fields are that body's, and the answer is that
 * operation's, so a field renamed in openapi.yaml fails `npm run typecheck` here too.
 */
import type { FetchResponse } from 'openapi-fetch';
import { tokenVigente } from '../../lib/api/client';
import type { paths } from '../../lib/api/schema';
import { multipart } from './multipart';

type Metodo = 'POST' | 'PUT';
type Operacion<P extends keyof paths, M extends Metodo> = paths[P][Lowercase<M>];

/** The multipart body of an operation without path parameters; never for any other. */
type Multipart<Op> = Op extends { parameters: { path?: never }; requestBody: { content: { 'multipart/form-data': infer B } } } ? B : never;

/** The paths whose `M` method takes a multipart body. */
export type RutaSubida<M extends Metodo> = {
  [P in keyof paths]: [Multipart<Operacion<P, M>>] extends [never] ? never : P;
}[keyof paths];

/** The body's fields as sent: a binary field (a string in the generated types, optional where `id_subida` may replace it) takes the file. */
export type CamposSubida<B> = { [K in keyof B]: NonNullable<B[K]> extends string ? string | Blob : B[K] };

type Respuesta<Op> = Op extends Record<string, unknown> ? FetchResponse<Op, unknown, 'application/json'> : never;

/**
 * The answer: on a 2xx, the operation's success body (undefined when it has none); otherwise its
 * error body, undefined when the server sent none it could read. Status 0: the network failed.
 */
export type RespuestaSubida<Op> =
  | { ok: true; status: number; data: Extract<Respuesta<Op>, { error?: never }>['data'] }
  | { ok: false; status: number; error: Extract<Respuesta<Op>, { data?: never }>['error'] | undefined };

/** The JSON body of the answer, when there is one to read. */
function cuerpo(xhr: XMLHttpRequest) {
  try {
    return xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends `campos` to `url`; `onProgreso` hears 0 to 100 as bytes leave the browser. Never rejects. */
export async function subir<M extends Metodo, P extends RutaSubida<M>>(
  metodo: M,
  url: P,
  campos: CamposSubida<Multipart<Operacion<P, M>>>,
  onProgreso?: (porcentaje: number) => void,
): Promise<RespuestaSubida<Operacion<P, M>>> {
  const token = await tokenVigente();
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(metodo, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgreso?.(Math.min(100, Math.floor((e.loaded / e.total) * 100)));
    });
    xhr.addEventListener('load', () => {
      const ok = xhr.status >= 200 && xhr.status < 300;
      resolve(ok ? { ok, status: xhr.status, data: cuerpo(xhr) } : { ok, status: xhr.status, error: cuerpo(xhr) });
    });
    const sinRed = () => resolve({ ok: false, status: 0, error: undefined });
    xhr.addEventListener('error', sinRed);
    xhr.addEventListener('abort', sinRed);
    xhr.send(multipart(campos));
  });
}

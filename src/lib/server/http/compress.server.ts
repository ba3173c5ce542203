/**
 * Compresses responses rendered on request (pages, API JSON) with brotli or gzip.
 *
 * Pages are streamed: the compressor flushes whenever the render pauses (waits for data) so
 * streamed HTML still reaches a slow connection early. Not after every chunk: Astro writes a page
 * in hundreds of small pieces, and a flush per piece cost a third of a signed-in page's CPU time
 * and doubled its compressed size (measured: 300 flushes made a 29 kB page 7.0 kB instead of
 * 2.9 kB, in 6.5 ms instead of 0.2 ms). An API answer is one JSON text already in memory: it is
 * compressed in one call (`comprimir`), with no stream around it (decision 0040).
 *
 * Brotli runs at quality 2 (decision 0040): on a signed-in list page (29 kB of HTML) quality 5
 * took 1.5 ms of CPU and gave 5.5 kB, quality 2 0.23 ms and 6.3 kB. Every response rendered on
 * request pays it, and on a 2-core server it was a third of a page's CPU time; 0.8 kB more is
 * about 4 ms on a 1.6 Mbps link. Built files keep their quality 11 copies (scripts/precompress.ts).
 */
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const textual = /^(text\/|application\/(json|javascript|xml|vnd\.apple\.mpegurl|manifest\+json)|image\/svg\+xml)/;

export type Codificacion = 'br' | 'gzip';

/**
 * Brotli's window, as a power of two: 256 kB. Pages and API answers are far smaller, so the size
 * is the same as with the default 4 MB window, but each response in flight no longer allocates
 * megabytes in the thread pool (the server's RSS under load, issue 15).
 */
const BROTLI_WINDOW = 18;
const BROTLI_QUALITY = 2;
const GZIP_LEVEL = 6;

const brotliParams = (size?: number) => ({
  [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
  [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW,
  ...(size === undefined ? {} : { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size }),
});

/**
 * How `response` goes out to a request with this method and Accept-Encoding: 'br' or 'gzip',
 * or null when it goes out as it is (no body, already encoded, not text, a part of a file, HEAD,
 * or a client that accepts neither).
 */
export function codificacionPara(method: string, acceptEncoding: string, response: Response): Codificacion | null {
  if (
    !response.body ||
    response.headers.has('content-encoding') ||
    !textual.test(response.headers.get('content-type') ?? '') ||
    response.status === 204 ||
    // A part of a file: its Content-Range counts bytes of the file, not of a compressed stream.
    response.status === 206 ||
    method === 'HEAD'
  ) {
    return null;
  }
  return codificacionAceptada(acceptEncoding);
}

/** The encoding a client with this Accept-Encoding gets: brotli first, then gzip, else none. */
export const codificacionAceptada = (acceptEncoding: string): Codificacion | null =>
  /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : null;

/**
 * Recent answers compressed, by encoding and text: a list read from a cache (db/cache.server.ts)
 * is the same bytes for every teacher until its tables change, so it is compressed once, not on
 * every call. Small answers only, and few of them (per encoding, at most RECIENTES_MAX × RECIENTE_MAX_BYTES).
 */
const recientes: Record<Codificacion, Map<string, Buffer>> = { br: new Map(), gzip: new Map() };
const RECIENTES_MAX = 64;
const RECIENTE_MAX_BYTES = 32 * 1024;

/** Larger answers are compressed in the thread pool, so one of them does not hold up every other request. */
const SINCRONO_MAX_BYTES = 256 * 1024;
const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

const comprimirYa = (bytes: Uint8Array, encoding: Codificacion): Buffer =>
  encoding === 'br'
    ? zlib.brotliCompressSync(bytes, { params: brotliParams(bytes.byteLength) })
    : zlib.gzipSync(bytes, { level: GZIP_LEVEL });

/**
 * A whole body compressed at once. `recordar` for answers many people get alike (API JSON, see
 * `recientes`); a page is the signed-in person's own, so it is not kept.
 */
export async function comprimir(bytes: Uint8Array, encoding: Codificacion, recordar = false): Promise<Buffer> {
  if (bytes.byteLength > SINCRONO_MAX_BYTES) {
    return encoding === 'br' ? brotliAsync(bytes, { params: brotliParams(bytes.byteLength) }) : gzipAsync(bytes, { level: GZIP_LEVEL });
  }
  if (!recordar || bytes.byteLength > RECIENTE_MAX_BYTES) return comprimirYa(bytes, encoding);
  const vistos = recientes[encoding];
  const clave = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let comprimido = vistos.get(clave);
  if (comprimido) vistos.delete(clave);
  else {
    comprimido = comprimirYa(bytes, encoding);
    if (vistos.size >= RECIENTES_MAX) {
      const oldest = vistos.keys().next();
      if (!oldest.done) vistos.delete(oldest.value);
    }
  }
  vistos.set(clave, comprimido);
  return comprimido;
}

/** The headers of a response once it is encoded: the encoding named, the length unknown, caches told to vary. */
export function cabecerasCodificadas(headers: Headers, encoding: Codificacion): Headers {
  const encoded = new Headers(headers);
  encoded.set('content-encoding', encoding);
  encoded.delete('content-length');
  encoded.append('vary', 'Accept-Encoding');
  return encoded;
}

/** A streamed body compressed as it arrives, flushed when the producer pauses. */
export function comprimirFlujo(body: ReadableStream<Uint8Array>, encoding: Codificacion): Readable {
  const compressor = encoding === 'br' ? zlib.createBrotliCompress({ params: brotliParams() }) : zlib.createGzip({ level: GZIP_LEVEL });
  const flushKind = encoding === 'br' ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
  // The chunks available now are compressed together; the flush runs once they are all in
  // (setImmediate comes after the microtasks that deliver them), i.e. when the render waits.
  let flushPending = false;
  const flushWhenIdle = new Transform({
    transform(chunk, _encoding, callback) {
      if (!flushPending) {
        flushPending = true;
        setImmediate(() => {
          flushPending = false;
          if (!compressor.writableEnded) compressor.flush(flushKind);
        });
      }
      callback(null, chunk);
    },
  });
  // pipeline (not pipe) carries a failure in the middle of a page's render on to the response,
  // which the adapter ends; an unhandled stream error would take the whole server down.
  return pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), flushWhenIdle, compressor, () => {});
}

/** The response compressed for the request when it should be (see `codificacionPara`), else as it is. */
export function compressResponse(request: Request, response: Response): Response {
  const encoding = codificacionPara(request.method, request.headers.get('accept-encoding') ?? '', response);
  if (!encoding || !response.body) return response;
  return new Response(Readable.toWeb(comprimirFlujo(response.body, encoding)) as ReadableStream, {
    status: response.status,
    statusText: response.statusText,
    headers: cabecerasCodificadas(response.headers, encoding),
  });
}

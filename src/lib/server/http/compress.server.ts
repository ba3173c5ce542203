/**
 * Compresses responses rendered on request (pages, API JSON) with brotli or gzip, flushing each
 * chunk so streamed HTML still reaches a slow connection early.
 */
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';

const textual = /^(text\/|application\/(json|javascript|xml|vnd\.apple\.mpegurl|manifest\+json)|image\/svg\+xml)/;

export function compressResponse(request: Request, response: Response): Response {
  const type = response.headers.get('content-type') ?? '';
  if (
    !response.body ||
    response.headers.has('content-encoding') ||
    !textual.test(type) ||
    response.status === 204 ||
    // A part of a file: its Content-Range counts bytes of the file, not of a compressed stream.
    response.status === 206 ||
    request.method === 'HEAD'
  ) {
    return response;
  }
  const accept = request.headers.get('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
  if (!encoding) return response;
  const compressor =
    encoding === 'br'
      ? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
      : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
  // pipeline (not pipe) carries a failure in the middle of a page's render on to the response,
  // which the adapter ends; an unhandled stream error would take the whole server down.
  const stream = pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), compressor, () => {});
  const headers = new Headers(response.headers);
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  headers.append('vary', 'Accept-Encoding');
  return new Response(Readable.toWeb(stream) as ReadableStream, { status: response.status, statusText: response.statusText, headers });
}

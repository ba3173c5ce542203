/**
 * A stored file as an HTTP response: streamed from disk (never loaded in memory), with a
 * Content-Disposition that keeps accents in the name (RFC 6266/5987), single byte ranges for
 * resumed downloads and video seeking, and a 416 for a range outside the file.
 */
import { Readable } from 'node:stream';
import { ApiError, errorResponse } from '../api/errors.server.ts';
import type { Storage } from '../storage/storage.server.ts';

export function contentDisposition(disposition: 'attachment' | 'inline', filename: string): string {
  const clean = filename.replace(/[\r\n"\\/]/g, ' ').trim() || 'archivo';
  const fallback = clean
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export interface FileResponseOptions {
  key: string;
  contentType: string;
  filename?: string;
  disposition?: 'attachment' | 'inline';
  range?: string | undefined;
  cacheControl?: string;
}

export async function fileResponse(storage: Storage, options: FileResponseOptions): Promise<Response> {
  const size = await storage.size(options.key);
  if (size === null) throw new ApiError(404, 'El archivo no está disponible');
  const headers = new Headers({
    'content-type': options.contentType,
    'accept-ranges': 'bytes',
    'cache-control': options.cacheControl ?? 'private, no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (options.filename) headers.set('content-disposition', contentDisposition(options.disposition ?? 'attachment', options.filename));

  let start = 0;
  let end = size - 1;
  let status = 200;
  const m = options.range ? /^bytes=(\d*)-(\d*)$/.exec(options.range.trim()) : null;
  if (options.range && m && size > 0) {
    const [, from = '', to = ''] = m;
    if (from === '' && to !== '') start = Math.max(0, size - Number(to));
    else {
      start = Number(from);
      if (to !== '') end = Math.min(Number(to), size - 1);
    }
    if (start > end || start >= size) {
      // Answered rather than thrown: a 416 is what a player or download manager acts on.
      const fuera = new ApiError(416, 'El rango pedido no está dentro del archivo', {}, { 'content-range': `bytes */${size}` });
      return errorResponse(fuera.status, fuera.body, fuera.headers);
    }
    status = 206;
    headers.set('content-range', `bytes ${start}-${end}/${size}`);
  }
  headers.set('content-length', String(size === 0 ? 0 : end - start + 1));
  const body = size === 0 ? null : (Readable.toWeb(storage.read(options.key, { start, end })) as ReadableStream);
  return new Response(body, { status, headers });
}

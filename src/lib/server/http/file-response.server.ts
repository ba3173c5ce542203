/**
 * A stored file as an HTTP response: streamed from storage (never loaded in memory), with a
 * Content-Disposition that keeps accents in the name (RFC 6266/5987), single byte ranges for
 * resumed downloads and video seeking, and a 416 for a range outside the file.
 *
 * Or, for the big files a route marks `directa` (downloads, the manual's reading, HLS segments),
 * a redirect to a short-lived link of the bucket or its CDN when the storage gives one (issue 19,
 * decision 0042): the route has checked permissions already, and the link carries the same
 * content type, disposition and caching the server would have answered with.
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
  /**
   * May be answered by a redirect to the storage's direct link. Only files a page reaches by a
   * link or a media request, never ones a page embeds from this origin (thumbnails, photos).
   */
  directa?: boolean;
}

/** Not the file's own caching: the link in it expires within minutes and is this person's. */
const CACHE_REDIRECCION = 'private, no-store';

export async function fileResponse(storage: Storage, options: FileResponseOptions): Promise<Response> {
  const size = await storage.size(options.key);
  if (size === null) throw new ApiError(404, 'El archivo no está disponible');
  const cacheControl = options.cacheControl ?? 'private, no-cache';
  const disposition = options.filename ? contentDisposition(options.disposition ?? 'attachment', options.filename) : undefined;
  if (options.directa) {
    const url = await storage.urlDirecta(options.key, {
      contentType: options.contentType,
      cacheControl,
      ...(disposition ? { disposition } : {}),
    });
    if (url) return new Response(null, { status: 302, headers: { location: url, 'cache-control': CACHE_REDIRECCION } });
  }
  const headers = new Headers({
    'content-type': options.contentType,
    'accept-ranges': 'bytes',
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
  });
  if (disposition) headers.set('content-disposition', disposition);

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
  const body = size === 0 ? null : (Readable.toWeb(await storage.read(options.key, { start, end })) as ReadableStream);
  return new Response(body, { status, headers });
}

/** A stored file offered for download under `filename` (a material, a capsule's original, a manual). */
export function descarga(storage: Storage, key: string, filename: string, range: string | undefined): Promise<Response> {
  return fileResponse(storage, { key, contentType: 'application/octet-stream', filename, range, directa: true });
}

const origenes = new WeakMap<Storage, Promise<string | null>>();

/**
 * The origin direct links point at (the CDN of STORAGE_PUBLIC_URL, or the bucket's endpoint), or
 * null when files go through this server: what a page fetching such files from script must allow
 * in its Content-Security-Policy (headers.server.ts `allowStorageOrigin`). Read off a link the
 * storage signs, so it is the origin its links really have; signing is local, done once.
 */
export function origenDirecto(storage: Storage): Promise<string | null> {
  let origen = origenes.get(storage);
  if (!origen) {
    origen = storage
      .urlDirecta('capsulas/0/hls/manifest.m3u8', { contentType: 'application/vnd.apple.mpegurl' })
      .then((url) => (url ? new URL(url).origin : null));
    origenes.set(storage, origen);
  }
  return origen;
}

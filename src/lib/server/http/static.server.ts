/**
 * Serves the built client (dist/client): hashed assets cached for a year, HTML revalidated on
 * every visit and kept out of shared caches, precompressed .br/.gz variants when the browser
 * accepts them, ETags for 304 answers. Anything it does not have falls through to Astro.
 * Each page goes out with the security headers and the Content-Security-Policy Astro wrote for it.
 */
import { createReadStream, existsSync, readFileSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { CSP_FALLBACK, PAGE_HEADERS } from './headers.server.ts';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.svg', '.txt', '.xml', '.webmanifest']);

/** The request path as UTF-8, whether the client percent-encoded it or sent raw bytes. */
function decodePath(url: string): string | null {
  const raw = url.split('?')[0] ?? '/';
  // Node reads a raw (unencoded) request line as latin1; recover the UTF-8 the client sent.
  const bytes = /[\u0080-\u00ff]/.test(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
  try {
    return decodeURIComponent(bytes).normalize('NFC');
  } catch {
    return null;
  }
}

async function fileAt(file: string): Promise<Stats | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * Prerendered pages whose last path segment is a token from an email link: every
 * /activar-cuenta/{token} is served the one prerendered /activar-cuenta/ page, which reads the
 * token from the address.
 */
const tokenPages = ['/activar-cuenta/', '/cambiar-contraseña/'];

/** A page's route as `_headers.json` names it: '/ingresar' for /ingresar/ and /ingresar/index.html. */
const routeOf = (pathname: string) => pathname.normalize('NFC').replace(/(\/index\.html|\.html|\/)$/, '') || '/';

/**
 * The policy of each prerendered page by its route ('/ingresar'), from the `_headers.json` the
 * Node adapter writes beside the client directory (astro.config.mjs: `staticHeaders`).
 */
function readPagePolicies(file: string): Map<string, string> {
  // A build from before decision 0022 has none: its pages get CSP_FALLBACK.
  if (!existsSync(file)) return new Map();
  const entries: { pathname: string; headers: { key: string; value: string }[] }[] = JSON.parse(readFileSync(file, 'utf8'));
  const policies = new Map<string, string>();
  for (const { pathname, headers } of entries) {
    const csp = headers.find((h) => h.key.toLowerCase() === 'content-security-policy');
    if (csp) policies.set(routeOf(pathname), csp.value);
  }
  return policies;
}

export function createStaticHandler(root: string) {
  const base = path.resolve(root);
  const policies = readPagePolicies(path.join(base, '..', '_headers.json'));
  const policyOf = (file: string) => policies.get(routeOf(`/${path.relative(base, file).split(path.sep).join('/')}`)) ?? CSP_FALLBACK;

  async function resolve(pathname: string): Promise<{ file: string; stats: Stats } | null> {
    const candidates = pathname.endsWith('/') ? [`${pathname}index.html`] : [pathname, `${pathname}/index.html`, `${pathname}.html`];
    for (const candidate of candidates) {
      const file = path.join(base, candidate);
      if (file !== base && !file.startsWith(base + path.sep)) return null;
      const stats = await fileAt(file);
      if (stats) return { file, stats };
    }
    const page = tokenPages.find((p) => pathname.startsWith(p) && /^[\w-]+\/?$/.test(pathname.slice(p.length)));
    if (page) {
      const file = path.join(base, page, 'index.html');
      const stats = await fileAt(file);
      if (stats) return { file, stats };
    }
    return null;
  }

  /** Returns true when it answered the request. */
  return async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pathname = decodePath(req.url ?? '/');
    if (!pathname || pathname.includes('\0')) return false;
    const found = await resolve(pathname);
    if (!found) return false;
    const ext = path.extname(found.file);
    const etag = `W/"${found.stats.size.toString(16)}-${Math.floor(found.stats.mtimeMs).toString(16)}"`;
    const headers: Record<string, string> = {
      'content-type': types[ext] ?? 'application/octet-stream',
      etag,
      'x-content-type-options': 'nosniff',
      'cache-control': pathname.startsWith('/_astro/')
        ? 'public, max-age=31536000, immutable'
        : ext === '.html'
          ? 'private, no-cache'
          : 'public, max-age=3600',
    };
    if (ext === '.html') Object.assign(headers, PAGE_HEADERS, { 'content-security-policy': policyOf(found.file) });
    if (COMPRESSIBLE.has(ext)) headers.vary = 'Accept-Encoding';
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    let file = found.file;
    let size = found.stats.size;
    if (COMPRESSIBLE.has(ext)) {
      const accept = String(req.headers['accept-encoding'] ?? '');
      for (const [encoding, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        if (!accept.includes(encoding)) continue;
        const variant = await fileAt(file + suffix);
        if (variant) {
          file += suffix;
          size = variant.size;
          headers['content-encoding'] = encoding;
          break;
        }
      }
    }
    headers['content-length'] = String(size);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
    return true;
  };
}

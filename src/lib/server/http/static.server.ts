/**
 * Serves the built client (dist/client): hashed assets cached for a year, HTML revalidated on
 * every visit and kept out of shared caches, precompressed .br/.gz variants when the browser
 * accepts them, ETags for 304 answers. Anything it does not have falls through to Astro.
 * Each page goes out with the security headers and the Content-Security-Policy Astro wrote for it.
 *
 * The files are read into memory when the server starts (3.7 MB today; a file over
 * `MAX_EN_MEMORIA` is kept open instead and streamed): no request touches the disk, and the
 * server keeps serving the build its own pages were rendered from. Looking each file up on disk
 * answered 404 for files that exist while `npm run build` replaced dist/ under a running server
 * (measured: 1,736 of 33,000 requests for existing assets during one build), the cause of the
 * occasional missing script, stylesheet or favicon of issue 15. A new build is served after a restart.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
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

/** Larger files are not copied into memory: an open descriptor keeps them readable instead. */
export const MAX_EN_MEMORIA = 4 * 1024 * 1024;

/** A file's bytes, or its open descriptor when it is large. */
interface Contenido {
  size: number;
  mtimeMs: number;
  bytes?: Buffer;
  fd?: number;
}

interface Archivo extends Contenido {
  /** Its path under the client directory, for the page policies. */
  file: string;
  br?: Contenido;
  gzip?: Contenido;
}

function leerContenido(file: string): Contenido {
  const fd = openSync(file, 'r');
  const { size, mtimeMs } = fstatSync(fd);
  if (size > MAX_EN_MEMORIA) return { size, mtimeMs, fd };
  try {
    return { size, mtimeMs, bytes: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/** Every file of the built client by its URL path ('/_astro/x.js', NFC), with its precompressed variants. */
function leerCliente(base: string): Map<string, Archivo> {
  const archivos = new Map<string, Archivo>();
  if (!existsSync(base)) return archivos;
  const nombres = readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
  const presentes = new Set(nombres);
  for (const file of nombres) {
    if (/\.(br|gz)$/.test(file) && presentes.has(file.replace(/\.(br|gz)$/, ''))) continue;
    const archivo: Archivo = { ...leerContenido(file), file };
    if (COMPRESSIBLE.has(path.extname(file))) {
      if (presentes.has(`${file}.br`)) archivo.br = leerContenido(`${file}.br`);
      if (presentes.has(`${file}.gz`)) archivo.gzip = leerContenido(`${file}.gz`);
    }
    const url = `/${path.relative(base, file).split(path.sep).join('/')}`.normalize('NFC');
    archivos.set(url, archivo);
  }
  return archivos;
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
  const archivos = leerCliente(base);
  const policyOf = (archivo: Archivo) =>
    policies.get(routeOf(`/${path.relative(base, archivo.file).split(path.sep).join('/')}`)) ?? CSP_FALLBACK;

  function resolve(requested: string): Archivo | null {
    const pathname = path.posix.normalize(requested);
    if (!pathname.startsWith('/')) return null;
    const candidates = pathname.endsWith('/') ? [`${pathname}index.html`] : [pathname, `${pathname}/index.html`, `${pathname}.html`];
    for (const candidate of candidates) {
      const archivo = archivos.get(candidate);
      if (archivo) return archivo;
    }
    const page = tokenPages.find((p) => pathname.startsWith(p) && /^[\w-]+\/?$/.test(pathname.slice(p.length)));
    return page ? (archivos.get(`${page}index.html`) ?? null) : null;
  }

  function send(res: ServerResponse, contenido: Contenido): void {
    if (contenido.bytes) {
      res.end(contenido.bytes);
      return;
    }
    createReadStream('', { fd: contenido.fd, start: 0, autoClose: false })
      .on('error', () => res.destroy())
      .pipe(res);
  }

  /** Returns true when it answered the request. */
  return async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pathname = decodePath(req.url ?? '/');
    if (!pathname || pathname.includes('\0')) return false;
    const found = resolve(pathname);
    if (!found) return false;
    const ext = path.extname(found.file);
    const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
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
    if (ext === '.html') Object.assign(headers, PAGE_HEADERS, { 'content-security-policy': policyOf(found) });
    if (COMPRESSIBLE.has(ext)) headers.vary = 'Accept-Encoding';
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    let contenido: Contenido = found;
    const accept = String(req.headers['accept-encoding'] ?? '');
    for (const encoding of ['br', 'gzip'] as const) {
      const variant = found[encoding];
      if (variant && accept.includes(encoding)) {
        contenido = variant;
        headers['content-encoding'] = encoding;
        break;
      }
    }
    headers['content-length'] = String(contenido.size);
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else send(res, contenido);
    return true;
  };
}

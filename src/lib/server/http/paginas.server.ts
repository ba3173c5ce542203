/**
 * Signed-in pages kept as they were sent, per person (issue 15 item 4, decision 0046). A page is
 * rendered for one person from the database; the same person asking again for the same address
 * gets the same bytes while nothing it read has changed. So a render is followed (db/cambios): the
 * tables its statements named and those behind the read caches it used. Its compressed bytes are
 * kept when it wrote nothing and set no cookie, and they are sent again, without Astro, while none
 * of those tables was written by this process since, for at most `maxSegundos` (`segundos` when
 * other processes share the database and their writes cannot be seen here).
 *
 * Who may see the page is decided on every request, cached or not: the access token is verified
 * and its session asked (`verificarAcceso`, whose answer lasts 2 s), and the key holds the person,
 * their groups, the address and everything else of the request that a page reads (the encoding
 * it accepts, the data saver's headers). A request without a valid access token is left to Astro,
 * which renews the session or redirects.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as leerCookies } from 'hono/utils/cookie';
import { pedidoAhorro } from '../../conexion.ts';
import { ACCESS_COOKIE } from '../auth/cookies.server.ts';
import { type TokenKeys, verificarAcceso } from '../auth/tokens.server.ts';
import type { Cambios, Lectura } from '../db/cambios.server.ts';
import { codificacionAceptada } from './compress.server.ts';

export interface OpcionesPaginas {
  /** The database's write tracker; without one (a client that reports nothing) nothing is kept. */
  cambios: Cambios | undefined;
  keys: TokenKeys;
  now: () => number;
  /** Longest age of a page when other processes write the same database. */
  segundos: number;
  /** Longest age otherwise: pages show times relative to now ('hace 5 minutos'). */
  maxSegundos: number;
  /** Most pages kept, and their bytes in all; the least recently sent goes first. */
  max: number;
  maxBytes: number;
}

/** A render being followed, handed to the page middleware in `locals.pagina`. */
export interface PaginaEnCurso {
  /** A page's response to send: the same, its body also collected for the cache when it may be kept. */
  guardar(response: Response, options: { fijaCookies: boolean }): Response;
  /** An API answer as it is written (api-node.server.ts): a 200 JSON without cookies is kept. */
  guardarJson(status: number, headers: OutgoingHttpHeaders, cuerpo: Uint8Array): void;
}

interface Entrada {
  tablas: string[];
  version: number;
  hasta: number;
  headers: OutgoingHttpHeaders;
  cuerpo: Buffer;
}

/**
 * What may be kept: pages and the API's reads, but not the admin console (it shows state outside
 * the database: jobs, storage, mail), files and video (streamed, never JSON or HTML), sign-in and
 * resumable uploads.
 */
const noSeGuarda = /^\/(?:admin(?:[/?]|$)|api\/admin\/|api\/subidas\/|streaming\/|miniaturas\/|auth\/|healthz)/;

/** One page's largest size kept: a signed-in page is 3-8 kB compressed. */
const ENTRADA_MAX_BYTES = 256 * 1024;

/** Headers of one answer only: its length and request id are the current request's. */
const POR_RESPUESTA = new Set(['content-length', 'x-request-id', 'date']);

const cabecera = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
};

export function createCachePaginas(opciones: OpcionesPaginas) {
  const { cambios } = opciones;
  const entradas = new Map<string, Entrada>();
  let bytes = 0;
  const edad = 1000 * (cambios?.compartida ? opciones.segundos : opciones.maxSegundos);

  const quitar = (clave: string) => {
    const entrada = entradas.get(clave);
    if (!entrada) return;
    bytes -= entrada.cuerpo.byteLength;
    entradas.delete(clave);
  };

  const poner = (clave: string, entrada: Entrada) => {
    quitar(clave);
    while (entradas.size > 0 && (entradas.size >= opciones.max || bytes + entrada.cuerpo.byteLength > opciones.maxBytes)) {
      const oldest = entradas.keys().next();
      if (oldest.done) break;
      quitar(oldest.value);
    }
    entradas.set(clave, entrada);
    bytes += entrada.cuerpo.byteLength;
  };

  /** The key of a page request that may be served from or kept in the cache, else null. */
  async function claveDe(req: IncomingMessage): Promise<string | null> {
    if (!cambios || req.method !== 'GET') return null;
    const url = req.url ?? '/';
    if (noSeGuarda.test(url)) return null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(cabecera(req, 'authorization') ?? '')?.[1];
    const claims = await verificarAcceso(bearer ?? leerCookies(req.headers.cookie ?? '', ACCESS_COOKIE)[ACCESS_COOKIE], opciones.keys);
    if (!claims) return null;
    const encoding = codificacionAceptada(cabecera(req, 'accept-encoding') ?? '') ?? '';
    const ahorro = pedidoAhorro({ get: (name: string) => cabecera(req, name.toLowerCase()) }) ? 'ahorro' : '';
    return [claims.sub, claims.groups.join(','), cabecera(req, 'host') ?? '', url, encoding, ahorro].join('\n');
  }

  /** The page kept under `clave`, while it is young and none of its tables was written. */
  function vigente(clave: string): Entrada | undefined {
    const entrada = entradas.get(clave);
    if (!entrada || !cambios) return undefined;
    if (entrada.hasta <= opciones.now() || cambios.version(entrada.tablas) !== entrada.version) {
      quitar(clave);
      return undefined;
    }
    // Sent again: it becomes the most recent.
    entradas.delete(clave);
    entradas.set(clave, entrada);
    return entrada;
  }

  /** Keeps a render's answer under `clave` if what it read still holds and it wrote nothing. */
  function cerrar(clave: string, lectura: Lectura, reloj: number, headers: OutgoingHttpHeaders, cuerpo: Buffer) {
    if (!cambios || lectura.escribio || cuerpo.byteLength > ENTRADA_MAX_BYTES) return;
    const tablas = [...lectura.tablas];
    const version = cambios.version(tablas);
    // A table it read was written while it rendered: what it shows may already be old.
    if (version > reloj) return;
    const guardadas: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(headers)) {
      if (!POR_RESPUESTA.has(name.toLowerCase())) guardadas[name] = value;
    }
    poner(clave, { tablas, version, hasta: opciones.now() + edad, headers: guardadas, cuerpo });
  }

  /** Collects a streamed page as it is sent, then keeps it (`cerrar`). */
  async function recoger(body: ReadableStream<Uint8Array>, guardar: (cuerpo: Buffer) => unknown) {
    const partes: Uint8Array[] = [];
    let total = 0;
    for await (const parte of body) {
      total += parte.byteLength;
      if (total > ENTRADA_MAX_BYTES) return;
      partes.push(parte);
    }
    guardar(Buffer.concat(partes));
  }

  /**
   * `enviada` says whether the whole answer reached the client: a page whose client went away
   * mid-stream may end early without an error, and those bytes must not be sent to anyone again.
   */
  function enCurso(clave: string, lectura: Lectura, reloj: number, enviada: Promise<boolean>): PaginaEnCurso {
    const guardarSiEnviada = (headers: OutgoingHttpHeaders, cuerpo: Buffer) =>
      enviada.then((completa) => {
        if (completa) cerrar(clave, lectura, reloj, headers, cuerpo);
      });
    return {
      guardar(response, { fijaCookies }) {
        const tipo = response.headers.get('content-type') ?? '';
        if (
          response.status !== 200 ||
          !response.body ||
          fijaCookies ||
          response.headers.has('set-cookie') ||
          !tipo.startsWith('text/html')
        ) {
          return response;
        }
        const headers: OutgoingHttpHeaders = Object.fromEntries(response.headers);
        const [enviar, guardar] = response.body.tee();
        recoger(guardar, (cuerpo) => guardarSiEnviada(headers, cuerpo)).catch(() => undefined);
        return new Response(enviar, { status: response.status, statusText: response.statusText, headers: response.headers });
      },
      guardarJson(status, headers, cuerpo) {
        if (status !== 200 || headers['set-cookie'] !== undefined || !/^application\/json\b/.test(String(headers['content-type'] ?? '')))
          return;
        void guardarSiEnviada(headers, Buffer.from(cuerpo));
      },
    };
  }

  return {
    /**
     * Sends the page from the cache when it can; else runs `render` (Astro's handler), followed
     * and with `locals.pagina` set when its result may be kept.
     */
    async atender(req: IncomingMessage, res: ServerResponse, render: (locals: { pagina?: PaginaEnCurso }) => Promise<void>): Promise<void> {
      const clave = await claveDe(req);
      if (clave === null || !cambios) return render({});
      const entrada = vigente(clave);
      if (entrada) {
        const requestId = cabecera(req, 'x-request-id');
        res.writeHead(200, {
          ...entrada.headers,
          ...(requestId ? { 'x-request-id': requestId } : {}),
          'content-length': entrada.cuerpo.byteLength,
          'server-timing': 'cache;desc="hit"',
        });
        res.end(entrada.cuerpo);
        return;
      }
      const lectura: Lectura = { tablas: new Set(), escribio: false };
      const enviada = new Promise<boolean>((resolve) => {
        res.once('finish', () => resolve(true));
        res.once('close', () => resolve(res.writableFinished));
      });
      const pagina = enCurso(clave, lectura, cambios.reloj(), enviada);
      return cambios.seguir(lectura, () => render({ pagina }));
    },
    /** How many pages are kept, and their bytes (for the bench and tests). */
    tamano: () => ({ paginas: entradas.size, bytes }),
  };
}

export type CachePaginas = ReturnType<typeof createCachePaginas>;

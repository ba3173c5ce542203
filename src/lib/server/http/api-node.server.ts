/**
 * The API's paths (rutas-api.server.ts) answered by the Hono app straight from Node's HTTP
 * server (decision 0040), the API's one way in (decision 0051). Astro's handler used to hand them
 * over through catch-all endpoints, yet building its request, matching its routes, running the
 * page middleware and turning the answer into streams twice over was most of a list call's time.
 * What the API sees is what Astro gave it: the same Request (URL from the Host header, every
 * header, the body streamed, a signal that aborts when the client goes away) and the socket's
 * address.
 *
 * A JSON answer (built in memory by the routes) goes out in one write with its Content-Length,
 * compressed in one call; anything else (files, HLS segments, thumbnails) is streamed with
 * backpressure, so a slow client never makes the server hold a whole file.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { cabecerasCodificadas, codificacionPara, comprimir, comprimirFlujo } from './compress.server.ts';
import { bodyDrained } from './guard.server.ts';
import type { PaginaEnCurso } from './paginas.server.ts';

/** What the Hono app offers (`app.fetch`) with the bindings of src/lib/server/api/env.server.ts. */
export interface ApiFetch {
  fetch(request: Request, env: { clientAddress?: string; trustProxy?: number }): Response | Promise<Response>;
}

/** The request's URL as Astro's Node adapter builds it: scheme and Host header, else localhost. */
function requestUrl(req: IncomingMessage): string {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const host = typeof req.headers.host === 'string' ? req.headers.host : 'localhost';
  const url = `${protocol}://${host}${req.url ?? ''}`;
  if (URL.canParse(url)) return url;
  return URL.canParse(`${protocol}://${host}`) ? `${protocol}://${host}` : `${protocol}://localhost`;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.append(name, value);
  }
  return headers;
}

/**
 * The request's body as a stream that starts reading the socket only when the API reads it. A
 * route that answers first (401, 403, 413) leaves it untouched, so Node reads the rest and throws
 * it away after the answer (http/guard.server.ts), and the connection serves the client's next
 * request. (Handing the IncomingMessage itself to Request, as Astro's adapter does, starts an
 * iterator over it at once, after which nothing drained it.)
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]();
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await chunks?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The Request the API sees; a body, when there is one, is read from the socket as the API reads it. */
export function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers: requestHeaders(req) };
  if (method !== 'GET' && method !== 'HEAD') {
    // An upload whose client went away stops being read (the API removes its temporary file).
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    Object.assign(init, { body: requestBody(req), duplex: 'half', signal: controller.signal });
  }
  return new Request(requestUrl(req), init);
}

/** Web headers as Node writes them: Set-Cookie as one header line each. */
function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = Object.fromEntries(headers.entries());
  const cookies = headers.getSetCookie();
  if (cookies.length > 1) out['set-cookie'] = cookies;
  return out;
}

const isJson = (response: Response) =>
  /^application\/json\b/.test(response.headers.get('content-type') ?? '') && !response.headers.has('content-length');

/**
 * Writes the API's answer: JSON at once with its length (and handed to the server's cache of
 * reads when it asked, paginas.server.ts), other bodies streamed.
 */
export async function writeApiResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  pagina?: PaginaEnCurso,
): Promise<void> {
  const method = req.method ?? 'GET';
  const encoding = codificacionPara(method, String(req.headers['accept-encoding'] ?? ''), response);
  const body = response.body;
  if (!body || method === 'HEAD') {
    res.writeHead(response.status, nodeHeaders(response.headers));
    res.end();
    if (body) await body.cancel().catch(() => undefined);
    return;
  }
  if (isJson(response)) {
    const raw = new Uint8Array(await response.arrayBuffer());
    const bytes = encoding ? await comprimir(raw, encoding, true) : raw;
    const headers = nodeHeaders(encoding ? cabecerasCodificadas(response.headers, encoding) : response.headers);
    headers['content-length'] = bytes.byteLength;
    res.writeHead(response.status, headers);
    res.end(bytes);
    pagina?.guardarJson(response.status, headers, bytes);
    return;
  }
  res.writeHead(response.status, nodeHeaders(encoding ? cabecerasCodificadas(response.headers, encoding) : response.headers));
  const source = encoding ? comprimirFlujo(body, encoding) : Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  // pipeline ends the response, and stops reading the file when the client goes away.
  await new Promise<void>((resolve) => {
    pipeline(source, res, () => resolve());
  });
}

/**
 * Answers an API request with `app`; the socket's address is the client's (TRUST_PROXY is the
 * app's concern). A small body the app did not read is read first, for at most `drainMs`
 * (`bodyDrained`), so the client is done writing when the answer comes.
 */
export function createApiHandler(app: ApiFetch, trustProxy: number, drainMs: number) {
  return async function serveApi(req: IncomingMessage, res: ServerResponse, pagina?: PaginaEnCurso): Promise<void> {
    const response = await app.fetch(toRequest(req, res), { clientAddress: req.socket.remoteAddress, trustProxy });
    await bodyDrained(req, drainMs);
    await writeApiResponse(req, res, response, pagina);
  };
}

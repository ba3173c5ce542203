/**
 * What the HTTP server enforces before and around every request, whatever route answers it
 * (decision 0020): a request id for the logs (also for errors nothing caught), a declared size
 * over the largest upload refused at once, timeouts for a body that stops arriving or drips, and
 * a connection closed, not read to the end, when the answer went out before the body did.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface HttpLimits {
  /** Time to receive the request line and headers. */
  headersMs: number;
  /** Longest silence while a request body is arriving (uploads included). */
  idleBodyMs: number;
  /** Time to receive a whole request that is not an upload. */
  requestMs: number;
  /** Largest declared body of any route (the largest upload with its fields). */
  maxBodyBytes: number;
  /** How long an answered connection is still drained before it is cut, so the client reads the answer. */
  lingerMs: number;
}

const requestIdPattern = /^[\w.-]{8,64}$/;
const UNSERVED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
const requests = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request whose code is running, if any (for errors that escaped every handler). */
export const currentRequestId = (): string | undefined => requests.getStore()?.requestId;

export function configureServer(server: Server, limits: HttpLimits): void {
  server.headersTimeout = limits.headersMs;
  // Node's own whole-request timeout is one value for every route; uploads need none (only the
  // idle one), so it is off here and `guard` applies it per request.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65 * 1000;
  // What Node's parser refuses (a body cut short by a half-closed socket, malformed headers)
  // gets the API's error shape instead of Node's bare '400 Bad Request' with no body.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answering = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? rawAnswer(431, 'Request Header Fields Too Large', 'Las cabeceras de la solicitud son demasiado grandes')
        : rawAnswer(400, 'Bad Request', 'La solicitud no es válida');
    socket.end(answer, () => socket.destroy());
  });
}

/** Multipart forms, and the chunks of resumable uploads (tus PATCH, issue 18): only the idle timeout applies. */
const UPLOAD_TYPES = ['multipart/form-data', 'application/offset+octet-stream'];
const isUpload = (req: IncomingMessage) =>
  req.method !== 'GET' && req.method !== 'HEAD' && UPLOAD_TYPES.some((type) => (req.headers['content-type'] ?? '').startsWith(type));

const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

function rawAnswer(status: number, reason: string, detail: string): string {
  const body = JSON.stringify({ detail, statusCode: status });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Ends a request whose body stopped arriving: a 408 if nothing was answered yet, then the socket is closed. */
function expire(req: IncomingMessage, res: ServerResponse, onTimeout: (kind: string) => void, kind: string): void {
  if (req.complete || res.writableEnded) return;
  onTimeout(kind);
  const socket = req.socket;
  if (!res.headersSent && socket.writable) {
    socket.end(rawAnswer(408, 'Request Timeout', 'La solicitud tardó demasiado en llegar; inténtalo nuevamente'), () => socket.destroy());
  } else socket.destroy();
}

/**
 * The most of a body still on its way that is read and thrown away around an early answer, so the
 * connection stays open for the client's next request (what Node does by itself). Closing it
 * instead raced the client: the answer says keep-alive, and a client that sent its next request
 * before the close arrived got 'other side closed' (decision 0040). A few times the largest JSON
 * body (1 MiB, api/input.server.ts), so a body refused for being just over it is read too.
 */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Whether the rest of a body may be read and thrown away: its declared size is within
 * `DRAIN_MAX_BYTES`, and no reader holds it (a 'readable' listener, an iterator over the body,
 * keeps `resume` from draining it).
 */
function drenable(req: IncomingMessage): boolean {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  return declared <= DRAIN_MAX_BYTES && req.listenerCount('readable') === 0;
}

/**
 * Before an API answer goes out: the rest of a body nobody read (a 401, 403 or 413 decided on the
 * headers alone), up to `DRAIN_MAX_BYTES`, is read and thrown away, for at most `lingerMs`.
 * Answering first raced a client still writing it on a connection that was to close
 * (`Connection: close`): Node closes the socket once the answer is out, the unread bytes turn that
 * close into a reset, and the client lost the answer it had not read yet (EPIPE). A larger body is
 * answered at once and cut (`settle`); one a reader holds is the reader's.
 */
export function bodyDrained(req: IncomingMessage, lingerMs: number): Promise<void> {
  if (req.complete || req.destroyed || !hasBody(req) || !drenable(req)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, lingerMs);
    req.once('end', done).once('close', done).once('error', done);
    req.resume();
  });
}

/**
 * After an answer sent before the body arrived: a small body nobody started reading is read to
 * its end (within `lingerMs`); a large one, or one a reader still holds, is cut.
 */
function settle(req: IncomingMessage, lingerMs: number): void {
  if (req.complete) return;
  if (!drenable(req)) {
    linger(req, lingerMs);
    return;
  }
  void bodyDrained(req, lingerMs).then(() => {
    if (!req.complete) req.socket.destroy();
  });
}

/** Closes the connection of an answer sent before its body was read: drained briefly, then cut. */
function linger(req: IncomingMessage, lingerMs: number): void {
  const socket = req.socket;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  req.resume();
}

/** Answers a request here, outside the API, in the API's error shape. */
export function answerJson(res: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  const requestId = res.req.headers['x-request-id'];
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(typeof requestId === 'string' ? { 'x-request-id': requestId } : {}),
    ...headers,
  });
  res.end(JSON.stringify({ detail, statusCode: status }));
}

/**
 * Runs `next` for a request with its guards in place, or answers it here (413) when its declared
 * size is over every route's limit.
 */
export function guard(
  req: IncomingMessage,
  res: ServerResponse,
  limits: HttpLimits,
  next: () => Promise<void>,
  onTimeout: (kind: string) => void = () => undefined,
): Promise<void> {
  const incoming = req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
  req.headers['x-request-id'] = requestId;

  const answer = (status: number, detail: string, headers: Record<string, string> = {}) => {
    answerJson(res, status, detail, headers);
    return Promise.resolve();
  };

  if (Number(req.headers['content-length'] ?? 0) > limits.maxBodyBytes) {
    res.once('finish', () => linger(req, limits.lingerMs));
    return answer(413, 'El contenido enviado es demasiado grande');
  }
  // Astro's adapter cannot build a Request for these methods and would answer 500; no route uses them.
  if (UNSERVED_METHODS.has(req.method ?? '')) {
    return answer(405, `El método ${req.method} no está permitido`, { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
  }

  if (hasBody(req) && !req.complete) {
    const onIdle = () => expire(req, res, onTimeout, 'idle body');
    req.setTimeout(limits.idleBodyMs, onIdle);
    const whole = isUpload(req) ? undefined : setTimeout(() => expire(req, res, onTimeout, 'slow request'), limits.requestMs);
    const bodyDone = () => {
      clearTimeout(whole);
      req.off('timeout', onIdle);
    };
    req.once('end', () => {
      bodyDone();
      req.socket.setTimeout(0);
    });
    res.once('close', bodyDone);
    res.once('finish', () => {
      settle(req, limits.lingerMs);
    });
  }
  return requests.run({ requestId }, next);
}

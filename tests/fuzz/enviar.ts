/**
 * Sends a fuzz case to the server as written: through node:http with the path untouched (no URL
 * normalisation, so '..' and broken percent-encoding arrive as sent), or over a bare socket when
 * the body must be cut, abandoned or announced with a size it does not have.
 */
import http from 'node:http';
import net from 'node:net';
import type { Caso } from './casos.ts';

export interface Respuesta {
  /** 0 when no answer came. */
  estado: number;
  tipo: string;
  cuerpo: string;
  /** Why no answer came (a reset, a timeout). */
  error?: string;
}

const ESPERA_MS = 20_000;
/** How long a cut or oversized request may wait for its answer. */
const ESPERA_CORTE_MS = 6_000;

export function enviar(base: URL, caso: Caso): Promise<Respuesta> {
  return caso.corte || caso.declarado ? enviarCrudo(base, caso) : enviarHttp(base, caso);
}

/**
 * A connection of its own per request (`agent: false`): an Agent that queues requests hands a
 * queued one the socket the server is closing after `Connection: close`, and that request then
 * fails with a 'socket hang up' that is the client's doing, not the server's.
 */
function enviarHttp(base: URL, caso: Caso): Promise<Respuesta> {
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request({
        host: base.hostname,
        port: base.port,
        method: caso.metodo,
        path: caso.ruta,
        agent: false,
        headers: { ...caso.cabeceras, ...(caso.cuerpo ? { 'content-length': String(caso.cuerpo.length) } : {}) },
        timeout: ESPERA_MS,
      });
    } catch (error) {
      resolve({ estado: 0, tipo: '', cuerpo: '', error: `the client refused to send it: ${String(error)}` });
      return;
    }
    // The answer as far as it came. A server that refuses a body early (413) answers, then cuts
    // the connection while a large body is still being written: the client's write then fails
    // (EPIPE, reset) after the answer arrived, and the answer is what counts.
    let recibida: (() => Respuesta) | undefined;
    req.on('response', (res) => {
      const trozos: Buffer[] = [];
      recibida = () => ({
        estado: res.statusCode ?? 0,
        tipo: String(res.headers['content-type'] ?? ''),
        cuerpo: Buffer.concat(trozos).toString('utf8'),
      });
      res.on('data', (d: Buffer) => trozos.push(d));
      res.on('error', () => undefined);
      res.on('close', () => resolve(recibida?.() ?? { estado: 0, tipo: '', cuerpo: '' }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${ESPERA_MS / 1000} s`)));
    req.on('error', (error) => resolve(recibida?.() ?? { estado: 0, tipo: '', cuerpo: '', error: error.message }));
    req.end(caso.cuerpo);
  });
}

/** Head and (part of) the body by hand, in one write; reads whatever answer comes before the socket closes. */
function enviarCrudo(base: URL, caso: Caso): Promise<Respuesta> {
  return new Promise((resolve) => {
    const cuerpo = caso.cuerpo ?? Buffer.alloc(0);
    const largo = caso.declarado ?? cuerpo.length;
    const cabeceras = { host: base.host, connection: 'close', ...caso.cabeceras, 'content-length': String(largo) };
    const head = `${caso.metodo} ${caso.ruta} HTTP/1.1\r\n${Object.entries(cabeceras)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    const socket = net.connect(Number(base.port), base.hostname);
    const trozos: Buffer[] = [];
    let hecho = false;
    const terminar = (error?: string) => {
      if (hecho) return;
      hecho = true;
      clearTimeout(reloj);
      socket.destroy();
      resolve({ ...leer(Buffer.concat(trozos)), ...(error && trozos.length === 0 ? { error } : {}) });
    };
    const reloj = setTimeout(() => terminar(`no answer in ${ESPERA_CORTE_MS / 1000} s`), ESPERA_CORTE_MS);
    socket.on('data', (d: Buffer) => trozos.push(d));
    socket.on('error', (error) => terminar(error.message));
    socket.on('close', () => terminar('connection closed without an answer'));
    const enviado = caso.corte ? cuerpo.subarray(0, caso.corte.bytes) : cuerpo;
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), enviado]), () => {
      if (caso.corte?.modo === 'destruir') setTimeout(() => terminar('destroyed by the client'), 30);
      else if (caso.corte?.modo === 'cerrar') socket.end();
    });
  });
}

/** Status, content type and body of a raw HTTP/1.1 answer (chunked or not). */
function leer(bytes: Buffer): Omit<Respuesta, 'error'> {
  const fin = bytes.indexOf('\r\n\r\n');
  if (fin < 0) return { estado: 0, tipo: '', cuerpo: '' };
  const cabeza = bytes.subarray(0, fin).toString('latin1');
  let resto = bytes.subarray(fin + 4);
  const estado = Number(/^HTTP\/1\.[01] (\d{3})/.exec(cabeza)?.[1] ?? 0);
  const tipo = /^content-type:\s*(.*)$/im.exec(cabeza)?.[1]?.trim() ?? '';
  if (/^transfer-encoding:\s*chunked/im.test(cabeza)) {
    const partes: Buffer[] = [];
    for (;;) {
      const linea = resto.indexOf('\r\n');
      const n = Number.parseInt(resto.subarray(0, linea).toString('latin1'), 16);
      if (!(n > 0)) break;
      partes.push(resto.subarray(linea + 2, linea + 2 + n));
      resto = resto.subarray(linea + 2 + n + 2);
    }
    resto = Buffer.concat(partes);
  }
  return { estado, tipo, cuerpo: resto.toString('utf8') };
}

/**
 * /api/subidas/: the tus 1.0.0 endpoint for resumable uploads (core, creation, termination,
 * expiration; decision 0041), served by @tus/server's `handleWeb` inside the Hono app. The
 * routes check what tus does not know (the Bearer token, the form an upload is for, its size
 * limit, the owner) before tus touches anything, check the real type of a finished upload's
 * bytes, and turn tus's English plain-text errors into the API's error shape. Another person's
 * upload answers 404, as one that does not exist.
 */
import { Server } from '@tus/server';
import { type Locker, Metadata } from '@tus/utils';
import { type Context, Hono } from 'hono';
import { type DestinoSubida, idSubida, metadatosSubidaSchema } from '../../validation/subidas.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { cleanFilename } from '../http/upload.server.ts';
import type { Logger } from '../log.server.ts';
import type { Actor } from '../services/actor.server.ts';
import { SUBIDA_NO_ENCONTRADA, type SubidasService } from '../services/subidas.server.ts';
import { ALMACENAMIENTO_NO_RESPONDE, almacenamientoNoResponde, SIN_ESPACIO_ARCHIVO, sinEspacio } from '../storage/fallas.server.ts';
import { type AppEnv, actor, autenticado } from './env.server.ts';
import { ApiError, errorResponse } from './errors.server.ts';
import { parseWith } from './input.server.ts';

const RUTA = '/api/subidas';
const TUS_VERSION = '1.0.0';
const TIPO_PATCH = 'application/offset+octet-stream';

const METADATOS_NO_VALIDOS = 'Upload-Metadata no es válido: pares «clave valor-en-base64» separados por comas';
const LARGO_REQUERIDO = 'Declare el tamaño del archivo en Upload-Length';

/** Spanish for what tus answers itself (by status); the headers a client needs are kept. */
const MENSAJES_TUS: Record<number, string> = {
  400: 'La solicitud de subida no es válida',
  403: 'La solicitud de subida no es válida',
  404: SUBIDA_NO_ENCONTRADA,
  409: 'Upload-Offset no coincide con lo recibido; consulte con HEAD desde dónde continuar',
  410: 'La subida expiró; comience una nueva',
  412: `Tus-Resumable debe ser ${TUS_VERSION}`,
  413: 'Los datos superan el tamaño declarado de la subida',
  415: `Envíe los datos como ${TIPO_PATCH}`,
  423: 'La subida está ocupada; inténtalo nuevamente',
};
const CABECERAS_TUS = ['tus-resumable', 'tus-version', 'upload-offset', 'upload-expires'];

/** What the hooks of a request need to know (tus hands them the same Request object). */
interface Pedido {
  actor: Actor;
  log: Logger;
  metadatos?: { filename: string; filetype: string; destino: DestinoSubida };
  /** Why the upload was refused once its last byte arrived (its bytes are no type its form takes). */
  rechazo?: ApiError;
}

const rechazoTus = (status: number, detail: string, headers: Record<string, string> = {}) =>
  errorResponse(status, { detail, statusCode: status }, { 'tus-resumable': TUS_VERSION, ...headers });

/** Every request but OPTIONS names the protocol version; the wrong one is 412 with the one we speak. */
function exigirVersion(c: Context<AppEnv>): Response | undefined {
  if (c.req.header('tus-resumable') === TUS_VERSION) return undefined;
  return rechazoTus(412, MENSAJES_TUS[412] ?? '', { 'tus-version': TUS_VERSION });
}

/** Upload-Metadata decoded and validated (filename and type cleaned: they are only hints). */
function leerMetadatos(header: string | undefined) {
  let crudos: Record<string, string | null>;
  try {
    crudos = Metadata.parse(header);
  } catch {
    throw new ApiError(400, METADATOS_NO_VALIDOS);
  }
  const valores = Object.fromEntries(Object.entries(crudos).filter((e): e is [string, string] => e[1] !== null));
  const { filename, filetype, destino } = parseWith(metadatosSubidaSchema, valores);
  const tipo = /^[\w.+-]{1,64}\/[\w.+-]{1,64}$/.test(filetype) ? filetype.toLowerCase() : 'application/octet-stream';
  return { filename: cleanFilename(filename), filetype: tipo, destino };
}

/** The declared length of a new upload: required (no deferred length, no concatenation). */
function leerLargo(c: Context<AppEnv>): number {
  if (c.req.header('upload-concat') !== undefined) throw new ApiError(400, 'Las subidas en partes paralelas no están disponibles');
  const largo = c.req.header('upload-length') ?? '';
  if (c.req.header('upload-defer-length') !== undefined || !/^(0|[1-9]\d{0,15})$/.test(largo)) throw new ApiError(400, LARGO_REQUERIDO);
  const n = Number(largo);
  if (!Number.isSafeInteger(n)) throw new ApiError(400, LARGO_REQUERIDO);
  return n;
}

export function subidasRoutes(subidas: SubidasService, deps: { keys: TokenKeys; locker: Locker }) {
  const auth = autenticado(deps.keys);
  const pedidos = new WeakMap<Request, Pedido>();

  const tus = new Server({
    path: RUTA,
    datastore: subidas.almacen.datastore,
    // Behind a proxy an absolute URL would name the inner host and scheme; clients resolve this one.
    relativeLocation: true,
    // Same origin only: the site needs no CORS, and tus would otherwise allow every origin.
    allowedOrigins: () => false,
    maxSize: subidas.limiteMayor(),
    // Held in the database too: an upload's requests may reach different web servers (issue 19).
    locker: deps.locker,
    async onUploadCreate(req, upload) {
      const pedido = pedidos.get(req);
      if (!pedido?.metadatos || upload.size === undefined) throw { status_code: 400, body: 'no upload context' };
      const { filename, filetype, destino } = pedido.metadatos;
      await subidas.registrar(pedido.actor, { id: upload.id, destino, nombre: filename, tipo: filetype, tamano: upload.size });
      return { metadata: { filename, filetype, destino } };
    },
    async onUploadFinish(req, upload) {
      try {
        await subidas.terminar(upload.id);
      } catch (error) {
        const pedido = pedidos.get(req);
        if (!(error instanceof ApiError) || !pedido) throw error;
        // tus answers with the status; `servir` answers with the form's own sentence.
        pedido.rechazo = error;
        throw { status_code: error.status, body: error.message };
      }
      return {};
    },
    onResponseError(req, error) {
      const status = 'status_code' in error ? error.status_code : 500;
      const pedido = pedidos.get(req);
      if (status >= 500) pedido?.log.error('upload request failed', { error });
      // The store could not write the chunk: the server's fault, said as such (issue 28). What
      // arrived before stays, and HEAD says where to go on.
      if (pedido && sinEspacio(error)) pedido.rechazo = new ApiError(507, SIN_ESPACIO_ARCHIVO);
      else if (pedido && almacenamientoNoResponde(error))
        pedido.rechazo = new ApiError(503, ALMACENAMIENTO_NO_RESPONDE, {}, { 'retry-after': '60' });
      return undefined;
    },
  });

  /** tus's answer, its errors in the API's shape; a failure nobody foresaw is logged. */
  async function servir(c: Context<AppEnv>, metadatos?: Pedido['metadatos']): Promise<Response> {
    const pedido: Pedido = { actor: actor(c), log: c.var.log, metadatos };
    pedidos.set(c.req.raw, pedido);
    const res = await tus.handleWeb(c.req.raw);
    if (res.status < 400) return res;
    if (pedido.rechazo)
      return errorResponse(pedido.rechazo.status, pedido.rechazo.body, { ...pedido.rechazo.headers, 'tus-resumable': TUS_VERSION });
    const texto = await res.text();
    if (res.status >= 500) c.var.log.error('upload answered with an error', { status: res.status, body: texto.slice(0, 200) });
    const headers = Object.fromEntries(CABECERAS_TUS.flatMap((h) => (res.headers.has(h) ? [[h, res.headers.get(h) ?? '']] : [])));
    const detalle = MENSAJES_TUS[res.status] ?? 'Ocurrió un error inesperado. Inténtalo nuevamente.';
    return errorResponse(res.status, { detail: detalle, statusCode: res.status }, headers);
  }

  /** The upload named by the path, if it is the signed-in person's: else 404, as one that does not exist. */
  async function propia(c: Context<AppEnv>): Promise<void> {
    const id = c.req.param('id') ?? '';
    if (!idSubida.safeParse(id).success) throw new ApiError(404, SUBIDA_NO_ENCONTRADA);
    await subidas.exigirPropia(actor(c), id);
  }

  return (
    new Hono<AppEnv>({ strict: false })
      // Discovery (Tus-Version, Tus-Extension, Tus-Max-Size): no session needed, nothing revealed.
      .options('/', (c) => tus.handleWeb(c.req.raw))
      .options('/:id', (c) => tus.handleWeb(c.req.raw))
      .post('/', auth, async (c) => {
        const version = exigirVersion(c);
        if (version) return version;
        const tamano = leerLargo(c);
        const metadatos = leerMetadatos(c.req.header('upload-metadata'));
        await subidas.autorizar(actor(c), metadatos.destino, tamano);
        return servir(c, metadatos);
      })
      // Hono routes HEAD through GET; a GET of an upload is not part of tus.
      .get('/:id', auth, async (c) => {
        if (c.req.method !== 'HEAD') {
          throw new ApiError(405, `El método GET no está permitido en ${c.req.path}`, {}, { allow: 'HEAD, PATCH, DELETE, OPTIONS' });
        }
        const version = exigirVersion(c);
        if (version) return version;
        await propia(c);
        return servir(c);
      })
      .patch('/:id', auth, async (c) => {
        const version = exigirVersion(c);
        if (version) return version;
        await propia(c);
        if (c.req.header('content-type') !== TIPO_PATCH) return rechazoTus(415, MENSAJES_TUS[415] ?? '');
        if (!/^\d{1,16}$/.test(c.req.header('upload-offset') ?? '')) return rechazoTus(400, 'Falta Upload-Offset o no es válido');
        return servir(c);
      })
      .delete('/:id', auth, async (c) => {
        const version = exigirVersion(c);
        if (version) return version;
        await propia(c);
        const res = await servir(c);
        if (res.status === 204) await subidas.olvidar(c.req.param('id'));
        return res;
      })
  );
}

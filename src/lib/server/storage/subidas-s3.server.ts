/**
 * Resumable uploads (tus) kept in the bucket with @tus/s3-store: each PATCH goes up as parts of
 * an S3 multipart upload, so any web server can take the next chunk of an upload another began.
 *
 * @tus/s3-store names its objects by the upload id alone (`<id>`, `<id>.info`, `<id>.part`); a
 * middleware on its S3 client puts every key it sends under `.subidas/`, the folder the storage
 * never lists nor accepts as a key, as on disk:
 *   .subidas/<id>        the finished upload (while it arrives: an S3 multipart upload of that key)
 *   .subidas/<id>.info   the upload's tus state (size, metadata, the multipart upload id)
 *   .subidas/<id>.part   the tail of the last PATCH when it was shorter than S3's 5 MiB minimum part
 *
 * The store keeps no state in the process: its metadata cache is turned off, so every server reads
 * `.info` from the bucket. It tags no objects (R2 and others lack tagging); expired uploads are
 * removed by the sweep of services/subidas.server.ts through `ids` and `eliminar`.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import type { KvStore } from '@tus/utils';
import { BREVE, noExiste, type S3Location, s3ClientConfig } from './s3.server.ts';
import { type AlmacenSubidas, EXTENSIONES } from './subidas.server.ts';

const PREFIJO = '.subidas/';
/** Parts of the multipart uploads (S3's minimum is 5 MiB): chunks wait in os.tmpdir() until sent. */
const PART_SIZE = 8 * 1024 * 1024;
/** Parts in flight at once for the whole process (the store's default, 60, would be 480 MiB on disk). */
const PARTES_A_LA_VEZ = 8;

/** A cache that holds nothing: another server may have changed the upload since. */
const sinCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

type ConClave = { Key?: unknown; Delete?: { Objects?: { Key?: unknown }[] } };
const conPrefijo = (key: unknown) => (typeof key === 'string' && !key.startsWith(PREFIJO) ? `${PREFIJO}${key}` : key);

/**
 * The bytes of `src` until it ends or fails. A PATCH whose connection drops reaches the store as a
 * failing stream; the file store has written what came by then, and so must this one (it keeps a
 * tail shorter than a part as `.part`), so the client's HEAD finds them and it sends only the rest.
 */
function hastaDondeLlegue(src: Readable): Readable {
  const salida = new PassThrough();
  src.once('error', () => salida.end());
  src.once('close', () => {
    if (!salida.writableEnded) salida.end();
  });
  return src.pipe(salida);
}

/** S3Store with every key under `.subidas/`, keeping what arrived of a request that failed. */
class S3StoreEnCarpeta extends S3Store {
  constructor(options: ConstructorParameters<typeof S3Store>[0]) {
    super(options);
    this.client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as ConClave;
        if ('Key' in input) input.Key = conPrefijo(input.Key);
        for (const objeto of input.Delete?.Objects ?? []) objeto.Key = conPrefijo(objeto.Key);
        return next(args);
      },
      { step: 'initialize', name: 'prefijoSubidas' },
    );
  }

  override write(src: Readable, id: string, offset: number): Promise<number> {
    return super.write(hastaDondeLlegue(src), id, offset);
  }
}

export function createAlmacenS3Subidas(options: {
  client: S3Client;
  location: S3Location;
  tempDir: string;
  expiraMs: number;
}): AlmacenSubidas {
  const { client, location, tempDir } = options;
  const Bucket = location.bucket;
  const datastore = new S3StoreEnCarpeta({
    partSize: PART_SIZE,
    maxConcurrentPartUploads: PARTES_A_LA_VEZ,
    expirationPeriodInMilliseconds: options.expiraMs,
    useTags: false,
    cache: sinCache,
    s3ClientConfig: { ...s3ClientConfig(location), bucket: Bucket },
  });
  datastore.extensions = EXTENSIONES;

  const hay = async (Key: string) => {
    try {
      await client.send(new HeadObjectCommand({ Bucket, Key }), BREVE);
      return true;
    } catch (error) {
      if (noExiste(error)) return false;
      throw error;
    }
  };

  return {
    datastore,
    existe: async (id) => (await hay(`${PREFIJO}${id}`)) || hay(`${PREFIJO}${id}.info`),
    async abrir(id) {
      let cuerpo: Readable;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: `${PREFIJO}${id}` }), BREVE);
        if (!(res.Body instanceof Readable)) throw new Error(`no body in the answer for upload ${id}`);
        cuerpo = res.Body;
      } catch (error) {
        // Gone, or still arriving (a multipart upload is no object until it completes).
        if (noExiste(error)) return null;
        throw error;
      }
      await mkdir(tempDir, { recursive: true });
      const tmpPath = path.join(tempDir, `subida-${randomUUID()}`);
      const liberar = () => rm(tmpPath, { force: true });
      try {
        await pipeline(cuerpo, createWriteStream(tmpPath));
      } catch (error) {
        await liberar();
        throw error;
      }
      return { tmpPath, liberar };
    },
    async eliminar(id) {
      // An upload still arriving holds parts in its multipart upload, named in `.info`.
      try {
        const info = await client.send(new HeadObjectCommand({ Bucket, Key: `${PREFIJO}${id}.info` }), BREVE);
        const UploadId = info.Metadata?.['upload-id'];
        if (UploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: `${PREFIJO}${id}`, UploadId }), BREVE);
      } catch (error) {
        // No info, or the multipart upload is already completed or aborted.
        if (!noExiste(error)) throw error;
      }
      const Objects = [id, `${id}.info`, `${id}.part`].map((n) => ({ Key: `${PREFIJO}${n}` }));
      const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }), BREVE);
      const fallo = res.Errors?.[0];
      if (fallo) throw new Error(`could not delete upload ${id}: ${fallo.Code} ${fallo.Message}`);
    },
    async ids() {
      const ids = new Set<string>();
      let ContinuationToken: string | undefined;
      do {
        const res = await client.send(new ListObjectsV2Command({ Bucket, Prefix: PREFIJO, ContinuationToken }), BREVE);
        for (const o of res.Contents ?? []) {
          const nombre = o.Key?.slice(PREFIJO.length).replace(/\.(info|part)$/, '');
          if (nombre && !nombre.includes('/')) ids.add(nombre);
        }
        ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return [...ids];
    },
  };
}

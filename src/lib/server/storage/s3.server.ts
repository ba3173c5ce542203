/**
 * The storage in an S3-compatible bucket (issue 19, decision 0042), with the official AWS SDK v3.
 * Tested against s3rver; written for AWS S3, MinIO, Cloudflare R2 and Ceph RGW (path-style
 * addressing with `forcePathStyle=true`, no object tagging, no checksums beyond what S3 requires).
 *
 * Nothing is held whole in memory: reads hand back the response stream, files go up in multipart
 * uploads of PART_SIZE with at most QUEUE_SIZE parts in flight, and tools get a temporary download
 * in `tempDir`. Credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, or an instance role).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Storage } from './storage.server.ts';
import { createAlmacenS3Subidas } from './subidas-s3.server.ts';

export interface S3Location {
  bucket: string;
  /** The service's URL (MinIO, R2, Ceph...); AWS's own when absent. */
  endpoint?: string;
  region: string;
  /** https://endpoint/bucket/key rather than https://bucket.endpoint/key: what most non-AWS services want. */
  forcePathStyle: boolean;
}

export interface S3StorageOptions extends S3Location {
  tempDir: string;
  /** Lifetime of the presigned links urlDirecta makes; 0: no links, files go through the server. */
  presignedSeconds: number;
  /** A CDN in front of the bucket: presigned links get its origin (and path prefix) instead of the bucket's. */
  publicUrl?: string | undefined;
}

/** Parts of multipart uploads: S3's minimum is 5 MiB; memory per upload is about PART_SIZE × QUEUE_SIZE. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;
/** Files adoptDir uploads at once (an HLS rendition is hundreds of small segments). */
const ADOPT_CONCURRENCY = 4;
/** S3 deletes at most 1000 keys a request. */
const DELETE_BATCH = 1000;

/** Folder names under the root that are never keys (as on disk): temporary files and resumable uploads. */
const RESERVADAS = new Set(['.tmp', '.subidas']);

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PARAMETROS = new Set(['endpoint', 'region', 'forcePathStyle']);

/** STORAGE_URL `s3://bucket?endpoint=...&region=...&forcePathStyle=true`, checked. */
export function parseS3Url(url: string): S3Location {
  const malo = (why: string) => new Error(`STORAGE_URL ${url} is not a valid s3:// URL: ${why}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malo('it cannot be parsed');
  }
  if (parsed.protocol !== 's3:') throw malo('it must start with s3://');
  if (parsed.username || parsed.password) throw malo('credentials go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL');
  const bucket = parsed.hostname;
  if (!BUCKET.test(bucket)) throw malo(`"${bucket}" is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`);
  if (parsed.port || (parsed.pathname !== '' && parsed.pathname !== '/'))
    throw malo('write only the bucket after s3://, options go in the query string');
  for (const name of parsed.searchParams.keys()) {
    if (!PARAMETROS.has(name)) throw malo(`unknown option "${name}" (known: ${[...PARAMETROS].join(', ')})`);
  }
  const endpoint = parsed.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    let e: URL;
    try {
      e = new URL(endpoint);
    } catch {
      throw malo(`endpoint "${endpoint}" is not a URL`);
    }
    if (e.protocol !== 'http:' && e.protocol !== 'https:') throw malo('endpoint must be an http:// or https:// URL');
  }
  const estilo = parsed.searchParams.get('forcePathStyle') ?? 'false';
  if (estilo !== 'true' && estilo !== 'false') throw malo('forcePathStyle must be true or false');
  const region = parsed.searchParams.get('region') || 'us-east-1';
  return { bucket, ...(endpoint === undefined ? {} : { endpoint }), region, forcePathStyle: estilo === 'true' };
}

/**
 * The client settings both the storage and the upload store use. A stopped endpoint fails a call
 * at once (refused, 3 attempts), an unreachable one after 3 × 5 s of connecting, one that accepts
 * and never answers after 3 × 10 s for calls without a body (BREVE) and 3 × 30 s for uploads (the
 * answer must start within 30 s, a part of PART_SIZE sent within it). There is no idle timeout on a body being read: a slow browser may pause a video.
 */
export function s3ClientConfig(location: S3Location): S3ClientConfig {
  return {
    region: location.region,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    forcePathStyle: location.forcePathStyle,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by every
    // S3-compatible service; S3 itself asks for a checksum only where it requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

/** For calls that send no body (reads, heads, lists, deletes): the answer must start within 10 s. */
export const BREVE = { requestTimeout: 10_000 };

/** Whether an SDK error says the object (or upload) is not there. */
export function noExiste(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a configuration error, never a missing file.
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.name === 'NoSuchUpload' || e.$metadata?.httpStatusCode === 404;
}

/** A storage key as the disk backend accepts it: relative, no '..', not under a reserved folder. */
function validarKey(key: string): string {
  const partes = key.split('/');
  if (
    key === '' ||
    key.startsWith('/') ||
    key.includes('\\') ||
    partes.some((p) => p === '' || p === '.' || p === '..') ||
    RESERVADAS.has(partes[0] ?? '')
  ) {
    throw new Error(`invalid storage key ${key}`);
  }
  return key;
}

async function* archivos(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    // As on disk: a tool that produced nothing leaves no folder.
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* archivos(full);
    else if (entry.isFile()) yield full;
  }
}

export function createS3Storage(options: S3StorageOptions): Storage {
  const { bucket, tempDir, presignedSeconds } = options;
  const client = new S3Client(s3ClientConfig(options));
  const publico = options.publicUrl ? new URL(options.publicUrl) : null;

  const subir = async (key: string, body: Readable | Buffer) => {
    if (Buffer.isBuffer(body) && body.length <= PART_SIZE) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: body.length }));
      return;
    }
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: validarKey(key), Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  };
  const adopt = async (key: string, file: string) => {
    validarKey(key);
    await subir(key, createReadStream(file));
    await rm(file, { force: true });
  };
  const read = async (key: string, range?: { start: number; end: number }) => {
    const res = await client.send(
      new GetObjectCommand({ Bucket: bucket, Key: validarKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      BREVE,
    );
    if (!(res.Body instanceof Readable)) throw new Error(`no body in the answer for ${key}`);
    return res.Body;
  };
  async function* listar(prefijo: string) {
    let ContinuationToken: string | undefined;
    do {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefijo, ContinuationToken }), BREVE);
      for (const o of res.Contents ?? []) {
        if (o.Key !== undefined && !RESERVADAS.has(o.Key.split('/')[0] ?? '')) yield { key: o.Key, size: o.Size ?? 0 };
      }
      ContinuationToken = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
  const borrar = async (keys: string[]) => {
    if (keys.length === 0) return;
    const res = await client.send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
      BREVE,
    );
    const fallo = res.Errors?.[0];
    if (fallo) throw new Error(`could not delete ${fallo.Key}: ${fallo.Code} ${fallo.Message}`);
  };

  return {
    tipo: 's3',
    tempDir,
    adopt,
    async adoptDir(prefix, dir) {
      validarKey(prefix);
      const pendientes = archivos(dir);
      const trabajador = async () => {
        // One generator shared by the workers: each takes the next file when it is free.
        for await (const file of pendientes) await adopt(`${prefix}/${path.relative(dir, file).split(path.sep).join('/')}`, file);
      };
      await Promise.all(Array.from({ length: ADOPT_CONCURRENCY }, trabajador));
      await rm(dir, { recursive: true, force: true });
    },
    async write(key, data) {
      await subir(validarKey(key), data);
    },
    read,
    async size(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: validarKey(key) }), BREVE);
        return res.ContentLength ?? 0;
      } catch (error) {
        if (noExiste(error)) return null;
        throw error;
      }
    },
    async *list(prefix) {
      yield* listar(prefix === '' ? '' : `${validarKey(prefix)}/`);
    },
    async local(key, use) {
      await mkdir(tempDir, { recursive: true });
      const file = path.join(tempDir, `${randomUUID()}${path.extname(key)}`);
      try {
        await pipeline(await read(key), createWriteStream(file));
        return await use(file);
      } finally {
        await rm(file, { force: true });
      }
    },
    async remove(keyOrPrefix) {
      const lote = [validarKey(keyOrPrefix)];
      for await (const { key } of listar(`${keyOrPrefix}/`)) {
        lote.push(key);
        if (lote.length === DELETE_BATCH) await borrar(lote.splice(0));
      }
      await borrar(lote);
    },
    async urlDirecta(key, respuesta) {
      if (presignedSeconds <= 0) return null;
      const comando = new GetObjectCommand({
        Bucket: bucket,
        Key: validarKey(key),
        ResponseContentType: respuesta.contentType,
        ...(respuesta.disposition ? { ResponseContentDisposition: respuesta.disposition } : {}),
        ...(respuesta.cacheControl ? { ResponseCacheControl: respuesta.cacheControl } : {}),
      });
      const firmada = new URL(await getSignedUrl(client, comando, { expiresIn: presignedSeconds }));
      if (!publico) return firmada.href;
      // The CDN forwards path and query to the bucket unchanged, so the signature still holds
      // there; its own path prefix, if any, comes first.
      return `${publico.origin}${publico.pathname.replace(/\/$/, '')}${firmada.pathname}${firmada.search}`;
    },
    almacenSubidas: (expiraMs) => createAlmacenS3Subidas({ client, location: options, tempDir, expiraMs }),
  };
}

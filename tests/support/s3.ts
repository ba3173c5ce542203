/**
 * A real S3-compatible server for tests (s3rver, a Koa app storing objects in a folder) on a free
 * port and a fresh temporary directory, with one bucket of a random name. `url` and `env` are what
 * STORAGE_URL and the AWS credential variables of a server or worker would be (s3rver accepts the
 * credentials S3RVER/S3RVER and checks the signatures made with them).
 *
 * Every bucket allows GET from any origin (CORS), as a real bucket behind presigned links must for
 * browsers. s3rver answers GetObject (with Range), HeadObject, PutObject, multipart uploads,
 * ListObjectsV2 and DeleteObjects. It lacks two multipart calls that every real service (AWS S3,
 * MinIO, R2, Ceph RGW) has and @tus/s3-store needs: ListParts (the offset of an upload) and
 * AbortMultipartUpload (terminating one). `multipartFaltante` adds them over s3rver's own
 * folder of parts, answering as S3 documents them; nothing else is changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from './server.ts';

const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

export interface TestS3 {
  /** STORAGE_URL for the first bucket. */
  url: string;
  /** STORAGE_URL plus the credentials, to spread into a child process's env. */
  env: { STORAGE_URL: string; AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
  endpoint: string;
  bucket: string;
  /** Creates another (CORS-enabled) bucket on the same server; returns its name and STORAGE_URL. */
  createBucket(name?: string): Promise<{ bucket: string; url: string }>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

const xml = (texto: string) => texto.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ListParts and AbortMultipartUpload over s3rver's folder of parts (uploads/<id>/<number>, <number>.md5). */
function multipartFaltante(server: S3rver): Parameters<S3rver['use']>[0] {
  return async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId) || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const [, bucket = '', ...resto] = ctx.path.split('/');
    const key = decodeURIComponent(resto.join('/'));
    const dir = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (!(await stat(dir).catch(() => null))) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`;
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const numeros = (await readdir(dir)).filter((n) => /^\d+$/.test(n)).map(Number);
    const desde = Number(ctx.query['part-number-marker'] ?? 0);
    const partes = await Promise.all(
      numeros
        .filter((n) => n > desde)
        .sort((a, b) => a - b)
        .map(async (n) => {
          const s = await stat(path.join(dir, String(n)));
          const md5 = (await readFile(path.join(dir, `${n}.md5`), 'utf8').catch(() => '')).trim();
          return `<Part><PartNumber>${n}</PartNumber><LastModified>${s.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${s.size}</Size></Part>`;
        }),
    );
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${xml(bucket)}</Bucket><Key>${xml(key)}</Key><UploadId>${uploadId}</UploadId><PartNumberMarker>${desde}</PartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${partes.join('')}</ListPartsResult>`;
  };
}

const randomName = () => `ed-${randomBytes(6).toString('hex')}`;

export async function startS3(): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'ed-s3-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = randomName();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    // Path-style only, as STORAGE_URL's forcePathStyle=true asks.
    vhostBuckets: false,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  // Before s3rver's own routes, which answer these two with 405.
  server.middleware.unshift(multipartFaltante(server));
  await server.run();
  const urlOf = (name: string) => `s3://${name}?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true`;
  const url = urlOf(bucket);
  return {
    url,
    env: { STORAGE_URL: url, ...S3_CREDENTIALS },
    endpoint,
    bucket,
    async createBucket(name = randomName()) {
      // Through the S3 API itself, as an operator would.
      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
      });
      try {
        await client.send(new CreateBucketCommand({ Bucket: name }));
        await client.send(
          new PutBucketCorsCommand({
            Bucket: name,
            CORSConfiguration: {
              CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'], AllowedHeaders: ['*'], MaxAgeSeconds: 3000 }],
            },
          }),
        );
      } finally {
        client.destroy();
      }
      return { bucket: name, url: urlOf(name) };
    },
    async close() {
      // Connections a test left open (a stream not read to its end) must not keep it waiting.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

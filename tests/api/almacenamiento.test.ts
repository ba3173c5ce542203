/**
 * The Storage contract (issue 19, decision 0042), one suite run over both backends: the disk under
 * a temporary folder, and an S3 bucket on a real S3-compatible server (s3rver).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createS3Storage, parseS3Url } from '../../src/lib/server/storage/s3.server.ts';
import { createDiskStorage, type Storage } from '../../src/lib/server/storage/storage.server.ts';
import { S3_CREDENTIALS, startS3, type TestS3 } from '../support/s3.ts';

let s3: TestS3;
beforeAll(async () => {
  Object.assign(process.env, S3_CREDENTIALS);
  s3 = await startS3();
});
afterAll(() => s3?.close());

const texto = async (stream: Readable) => {
  const partes: Buffer[] = [];
  for await (const parte of stream) partes.push(Buffer.from(parte));
  return Buffer.concat(partes).toString();
};
const sha256 = async (stream: Readable) => {
  const hash = createHash('sha256');
  for await (const parte of stream) hash.update(parte);
  return hash.digest('hex');
};
const listar = async (storage: Storage, prefix: string) => {
  const todos = [];
  for await (const archivo of storage.list(prefix)) todos.push(archivo);
  return todos.sort((a, b) => a.key.localeCompare(b.key));
};

interface Backend {
  storage: Storage;
  /** A folder outside the storage, for files to adopt. */
  fuera: string;
  cleanup: () => Promise<void>;
}

const backends: Record<string, (opciones?: { presignedSeconds?: number; publicUrl?: string }) => Promise<Backend>> = {
  disco: async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ed-almacen-'));
    const fuera = mkdtempSync(path.join(os.tmpdir(), 'ed-fuera-'));
    return {
      storage: createDiskStorage(root),
      fuera,
      cleanup: async () => {
        rmSync(root, { recursive: true, force: true });
        rmSync(fuera, { recursive: true, force: true });
      },
    };
  },
  s3: async (opciones = {}) => {
    const { url } = await s3.createBucket();
    const fuera = mkdtempSync(path.join(os.tmpdir(), 'ed-fuera-'));
    const tempDir = mkdtempSync(path.join(os.tmpdir(), 'ed-s3tmp-'));
    return {
      storage: createS3Storage({
        ...parseS3Url(url),
        tempDir,
        presignedSeconds: opciones.presignedSeconds ?? 0,
        publicUrl: opciones.publicUrl,
      }),
      fuera,
      cleanup: async () => {
        rmSync(fuera, { recursive: true, force: true });
        rmSync(tempDir, { recursive: true, force: true });
      },
    };
  },
};

describe.each(Object.keys(backends))('Storage on %s', (tipo) => {
  const crear = backends[tipo] as (typeof backends)['disco'];
  let b: Backend;
  beforeEach(async () => {
    b = await crear();
  });
  afterEach(() => b.cleanup());

  it('writes buffers and streams, reads whole files and byte ranges, and tells sizes', async () => {
    const { storage } = b;
    expect(storage.tipo).toBe(tipo);
    await storage.write('manuales/1/original.pdf', Buffer.from('0123456789'));
    await storage.write('manuales/1/paginas/1.webp', Readable.from([Buffer.from('pagina '), Buffer.from('uno')]));
    expect(await texto(await storage.read('manuales/1/original.pdf'))).toBe('0123456789');
    expect(await texto(await storage.read('manuales/1/original.pdf', { start: 2, end: 5 }))).toBe('2345');
    expect(await texto(await storage.read('manuales/1/original.pdf', { start: 9, end: 9 }))).toBe('9');
    expect(await texto(await storage.read('manuales/1/paginas/1.webp'))).toBe('pagina uno');
    expect(await storage.size('manuales/1/original.pdf')).toBe(10);
    expect(await storage.size('manuales/1/otro.pdf')).toBeNull();
    await expect(storage.read('manuales/1/otro.pdf')).rejects.toThrow();
    // A write replaces what the key held.
    await storage.write('manuales/1/original.pdf', Buffer.from('nuevo'));
    expect(await texto(await storage.read('manuales/1/original.pdf'))).toBe('nuevo');
  });

  it('adopts a local file, which is gone after', async () => {
    const archivo = path.join(b.fuera, 'subida.bin');
    writeFileSync(archivo, 'contenido subido');
    await b.storage.adopt('materiales/7/archivo', archivo);
    expect(existsSync(archivo)).toBe(false);
    expect(await texto(await b.storage.read('materiales/7/archivo'))).toBe('contenido subido');
    const vacio = path.join(b.fuera, 'vacio.txt');
    writeFileSync(vacio, '');
    await b.storage.adopt('materiales/7/vacio.txt', vacio);
    expect(await b.storage.size('materiales/7/vacio.txt')).toBe(0);
  });

  it('adopts a whole folder under a prefix, and the folder is gone after', async () => {
    const dir = path.join(b.fuera, 'hls');
    await mkdir(path.join(dir, '720p'), { recursive: true });
    await writeFile(path.join(dir, 'master.m3u8'), '#EXTM3U');
    for (let i = 0; i < 9; i++) await writeFile(path.join(dir, '720p', `seg${i}.ts`), `segmento ${i}`);
    await b.storage.adoptDir('capsulas/3/hls', dir);
    expect(existsSync(dir)).toBe(false);
    const lista = await listar(b.storage, 'capsulas/3/hls');
    expect(lista).toHaveLength(10);
    expect(lista[0]).toEqual({ key: 'capsulas/3/hls/720p/seg0.ts', size: 'segmento 0'.length });
    expect(lista.at(-1)).toEqual({ key: 'capsulas/3/hls/master.m3u8', size: 7 });
    expect(await texto(await b.storage.read('capsulas/3/hls/720p/seg8.ts'))).toBe('segmento 8');
  });

  it('lists under a folder key or everything, never the reserved folders, and removes a key or a folder', async () => {
    const { storage } = b;
    await storage.write('capsulas/3/original.mp4', Buffer.from('video'));
    await storage.write('capsulas/3/hls/master.m3u8', Buffer.from('#EXTM3U'));
    await storage.write('capsulas/30/original.mp4', Buffer.from('otro'));
    await storage.write('fotos/1.webp', Buffer.from('foto'));
    // A resumable upload lives beside the files and is never listed as one.
    const subidas = storage.almacenSubidas(60_000);
    expect(await subidas.ids()).toEqual([]);
    expect((await listar(storage, 'capsulas/3')).map((a) => a.key)).toEqual(['capsulas/3/hls/master.m3u8', 'capsulas/3/original.mp4']);
    expect((await listar(storage, '')).map((a) => a.key)).toEqual([
      'capsulas/3/hls/master.m3u8',
      'capsulas/3/original.mp4',
      'capsulas/30/original.mp4',
      'fotos/1.webp',
    ]);
    expect(await listar(storage, 'nada')).toEqual([]);
    await storage.remove('fotos/1.webp');
    expect(await storage.size('fotos/1.webp')).toBeNull();
    await storage.remove('capsulas/3');
    expect((await listar(storage, '')).map((a) => a.key)).toEqual(['capsulas/30/original.mp4']);
    // Removing what is not there is no error.
    await storage.remove('capsulas/3');
    await storage.remove('fotos/9.webp');
  });

  it('hands a tool a local file with the bytes, removed after when it was a copy', async () => {
    await b.storage.write('manuales/2/original.pdf', Buffer.from('%PDF-1.4 prueba'));
    let visto = '';
    const resultado = await b.storage.local('manuales/2/original.pdf', async (file) => {
      visto = file;
      expect(path.extname(file)).toBe('.pdf');
      return readFile(file, 'utf8');
    });
    expect(resultado).toBe('%PDF-1.4 prueba');
    // Disk hands its own file; a bucket's copy is gone.
    expect(existsSync(visto)).toBe(tipo === 'disco');
    // A missing key never reaches the tool as bytes (a bucket refuses before, the disk's path is not there).
    await expect(b.storage.local('manuales/2/falta.pdf', (file) => readFile(file))).rejects.toThrow();
    await expect(
      b.storage.local('manuales/2/original.pdf', async () => {
        throw new Error('la herramienta falló');
      }),
    ).rejects.toThrow('la herramienta falló');
  });

  it('refuses keys outside the storage or in its reserved folders', async () => {
    const { storage } = b;
    for (const key of ['../secretos/jwt', '/etc/passwd', 'a/../../b', '.tmp/x', '.subidas/abc', '']) {
      await expect(storage.write(key, Buffer.from('x')), key).rejects.toThrow('invalid storage key');
      await expect(storage.read(key), key).rejects.toThrow('invalid storage key');
    }
    await expect(storage.remove('../fuera')).rejects.toThrow('invalid storage key');
  });

  it('gives no direct link without presigned links', async () => {
    await b.storage.write('fotos/1.webp', Buffer.from('foto'));
    expect(await b.storage.urlDirecta('fotos/1.webp', { contentType: 'image/webp' })).toBeNull();
  });

  it('adopts a large file and reads back the same bytes', async () => {
    const archivo = path.join(b.fuera, 'grande.bin');
    // 40 MiB of random bytes, written in 1 MiB pieces (never whole in memory).
    const hash = createHash('sha256');
    async function* trozos() {
      for (let i = 0; i < 40; i++) {
        const trozo = randomBytes(1024 * 1024);
        hash.update(trozo);
        yield trozo;
      }
    }
    await pipeline(Readable.from(trozos()), createWriteStream(archivo));
    const esperado = hash.digest('hex');
    await b.storage.adopt('capsulas/9/original.mp4', archivo);
    expect(await b.storage.size('capsulas/9/original.mp4')).toBe(40 * 1024 * 1024);
    expect(await sha256(await b.storage.read('capsulas/9/original.mp4'))).toBe(esperado);
    const rango = await texto(await b.storage.read('capsulas/9/original.mp4', { start: 20 * 1024 * 1024, end: 20 * 1024 * 1024 + 9 }));
    expect(Buffer.from(rango, 'latin1').length).toBeGreaterThan(0);
    // A stream written as a file of unknown length goes up in parts too.
    await b.storage.write('capsulas/9/copia.mp4', await b.storage.read('capsulas/9/original.mp4'));
    expect(await sha256(await b.storage.read('capsulas/9/copia.mp4'))).toBe(esperado);
  }, 120_000);
});

describe('S3 storage', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const crear = async (opciones: { presignedSeconds?: number; publicUrl?: string }) => {
    const backend = await (backends.s3 as (typeof backends)['s3'])(opciones);
    cleanups.push(backend.cleanup);
    return backend.storage;
  };

  it('reads STORAGE_URL and says in English what is wrong with a bad one', () => {
    expect(parseS3Url('s3://medios?endpoint=http://127.0.0.1:9000&region=sa-east-1&forcePathStyle=true')).toEqual({
      bucket: 'medios',
      endpoint: 'http://127.0.0.1:9000',
      region: 'sa-east-1',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://medios')).toEqual({ bucket: 'medios', region: 'us-east-1', forcePathStyle: false });
    expect(() => parseS3Url('s3://Medios_2')).toThrow(
      /STORAGE_URL s3:\/\/Medios_2 is not a valid s3:\/\/ URL: "medios_2" is not a bucket name|not a bucket name/,
    );
    expect(() => parseS3Url('s3://medios/carpeta')).toThrow('write only the bucket after s3://');
    expect(() => parseS3Url('s3://medios?endpoint=ftp://x')).toThrow('endpoint must be an http:// or https:// URL');
    expect(() => parseS3Url('s3://medios?forcePathStyle=si')).toThrow('forcePathStyle must be true or false');
    expect(() => parseS3Url('s3://medios?bucket=x')).toThrow('unknown option "bucket"');
    expect(() => parseS3Url('s3://clave:secreto@medios')).toThrow('credentials go in AWS_ACCESS_KEY_ID');
    expect(() => parseS3Url('http://medios')).toThrow('it must start with s3://');
  });

  it('gives no link with presigned links turned off (0 seconds)', async () => {
    const storage = await crear({ presignedSeconds: 0 });
    await storage.write('fotos/1.webp', Buffer.from('foto'));
    expect(await storage.urlDirecta('fotos/1.webp', { contentType: 'image/webp' })).toBeNull();
  });

  it('gives a presigned link a browser fetches the bytes from, with the asked headers', async () => {
    const storage = await crear({ presignedSeconds: 60 });
    await storage.write('manuales/4/original.pdf', Buffer.from('%PDF-1.4 enlace'));
    const url = await storage.urlDirecta('manuales/4/original.pdf', {
      contentType: 'application/pdf',
      disposition: 'attachment; filename="Manual.pdf"',
      cacheControl: 'private, max-age=60',
    });
    expect(url).toMatch(new RegExp(`^${s3.endpoint}/`));
    const res = await fetch(url ?? '', { headers: { origin: 'https://entredocentes.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Manual.pdf"');
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe('%PDF-1.4 enlace');
    // A range, as a video player asks.
    const parte = await fetch(url ?? '', { headers: { range: 'bytes=5-7' } });
    expect(parte.status).toBe(206);
    expect(await parte.text()).toBe('1.4');
    // Short-lived and signed (s3rver does not check SigV4 signatures; S3, MinIO, R2 and RGW do).
    const query = new URL(url ?? '').searchParams;
    expect(query.get('X-Amz-Expires')).toBe('60');
    expect(query.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('points presigned links at the CDN in front of the bucket', async () => {
    const storage = await crear({ presignedSeconds: 60, publicUrl: 'https://cdn.example.cl/medios/' });
    await storage.write('capsulas/5/hls/master.m3u8', Buffer.from('#EXTM3U'));
    const url = await storage.urlDirecta('capsulas/5/hls/master.m3u8', { contentType: 'application/vnd.apple.mpegurl' });
    expect(url).toMatch(/^https:\/\/cdn\.example\.cl\/medios\/ed-[0-9a-f]+\/capsulas\/5\/hls\/master\.m3u8\?/);
    expect(url).toContain('X-Amz-Signature=');
    // The same path and query on the bucket's own origin is what the CDN forwards: it answers.
    const enBucket = (url ?? '').replace('https://cdn.example.cl/medios', s3.endpoint);
    const res = await fetch(enBucket);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  });

  it('fails fast when the endpoint is gone, instead of hanging', async () => {
    const otro = await startS3();
    const tempDir = mkdtempSync(path.join(os.tmpdir(), 'ed-s3tmp-'));
    cleanups.push(async () => rmSync(tempDir, { recursive: true, force: true }));
    const storage = createS3Storage({ ...parseS3Url(otro.url), tempDir, presignedSeconds: 0 });
    await storage.write('fotos/1.webp', Buffer.from('foto'));
    await otro.close();
    const inicio = Date.now();
    await expect(storage.read('fotos/1.webp')).rejects.toThrow();
    await expect(storage.size('fotos/1.webp')).rejects.toThrow();
    await expect(storage.write('fotos/2.webp', Buffer.from('foto'))).rejects.toThrow();
    expect(Date.now() - inicio).toBeLessThan(10_000);
  });

  it('keeps resumable uploads under .subidas/ and opens, finds and removes them', async () => {
    const storage = await crear({});
    const subidas = storage.almacenSubidas(60_000);
    const id = randomBytes(16).toString('hex');
    const { Upload } = await import('@tus/utils');
    const datos = randomBytes(6 * 1024 * 1024 + 123);
    await subidas.datastore.create(new Upload({ id, size: datos.length, offset: 0, metadata: { filename: 'video.mp4' } }));
    expect(await subidas.ids()).toEqual([id]);
    expect(await subidas.existe(id)).toBe(true);
    // Not finished: nothing to open yet.
    expect(await subidas.abrir(id)).toBeNull();
    // Two PATCHes: the first leaves a tail shorter than S3's minimum part, kept as `.part`.
    const primero = 1024 * 1024;
    expect(await subidas.datastore.write(Readable.from([datos.subarray(0, primero)]), id, 0)).toBe(primero);
    expect((await subidas.datastore.getUpload(id)).offset).toBe(primero);
    expect(await subidas.datastore.write(Readable.from([datos.subarray(primero)]), id, primero)).toBe(datos.length);
    const subida = await subidas.datastore.getUpload(id);
    expect(subida.offset).toBe(datos.length);
    // Never a storage key, never listed as a file.
    expect(await listar(storage, '')).toEqual([]);
    const abierta = await subidas.abrir(id);
    expect(abierta).not.toBeNull();
    expect((await stat(abierta?.tmpPath ?? '')).size).toBe(datos.length);
    expect(
      createHash('sha256')
        .update(readFileSync(abierta?.tmpPath ?? ''))
        .digest('hex'),
    ).toBe(createHash('sha256').update(datos).digest('hex'));
    await abierta?.liberar();
    expect(existsSync(abierta?.tmpPath ?? '')).toBe(false);
    // The upload itself stays until it is removed.
    expect(await subidas.existe(id)).toBe(true);
    await subidas.eliminar(id);
    expect(await subidas.existe(id)).toBe(false);
    expect(await subidas.ids()).toEqual([]);
    expect(await subidas.abrir(id)).toBeNull();
    await subidas.eliminar(id);
  });

  it('keeps what arrived of a PATCH whose connection dropped, so the client sends only the rest', async () => {
    const storage = await crear({});
    const subidas = storage.almacenSubidas(60_000);
    const id = randomBytes(16).toString('hex');
    const { Upload } = await import('@tus/utils');
    const datos = randomBytes(100_000);
    await subidas.datastore.create(new Upload({ id, size: datos.length, offset: 0 }));
    const cortada = new Readable({ read() {} });
    cortada.push(datos.subarray(0, 40_000));
    setImmediate(() => cortada.destroy(new Error('aborted')));
    expect(await subidas.datastore.write(cortada, id, 0)).toBe(40_000);
    expect((await subidas.datastore.getUpload(id)).offset).toBe(40_000);
    expect(await subidas.datastore.write(Readable.from([datos.subarray(40_000)]), id, 40_000)).toBe(datos.length);
    const abierta = await subidas.abrir(id);
    expect(readFileSync(abierta?.tmpPath ?? '').equals(datos)).toBe(true);
    await abierta?.liberar();
  });

  it('removes an upload still arriving, parts and all', async () => {
    const storage = await crear({});
    const subidas = storage.almacenSubidas(60_000);
    const id = randomBytes(16).toString('hex');
    const { Upload } = await import('@tus/utils');
    await subidas.datastore.create(new Upload({ id, size: 20 * 1024 * 1024, offset: 0 }));
    // One whole part and a short tail.
    expect(await subidas.datastore.write(createReadStream('/dev/zero', { end: 9 * 1024 * 1024 - 1 }), id, 0)).toBe(9 * 1024 * 1024);
    expect(await subidas.ids()).toEqual([id]);
    await subidas.eliminar(id);
    expect(await subidas.ids()).toEqual([]);
    expect(await subidas.existe(id)).toBe(false);
    await expect(subidas.datastore.getUpload(id)).rejects.toMatchObject({ status_code: 404 });
  });
});

/**
 * `npm run migrate-storage -- --to s3://...` (issue 19): copies a data directory's files into a
 * real S3-compatible server (s3rver), resumes after a kill -9, and checks by SHA-256. What is in
 * the bucket is read back with the AWS SDK itself, not with the storage code under test.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { esperar } from '../support/procesos.ts';
import { S3_CREDENTIALS, startS3, type TestS3 } from '../support/s3.ts';
import { root, runCli } from '../support/server.ts';

const SCRIPT = 'scripts/migrate-storage.ts';
const MB = 1024 * 1024;

interface Archivo {
  size: number;
  sha: string;
}

let s3: TestS3;
let client: S3Client;
const carpetas: string[] = [];

beforeAll(async () => {
  s3 = await startS3();
  client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
  });
});

afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

afterEach(() => {
  for (const dir of carpetas.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A data directory as an installation leaves it: nested folders, a 20 MB video, an empty file,
 * the reserved folders (temporary files, resumable uploads) and files a running server is still
 * writing. Returns the files that must reach the bucket.
 */
function datos(extras = 0): { dataDir: string; archivos: Map<string, Archivo> } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-migrar-'));
  carpetas.push(dataDir);
  const files = path.join(dataDir, 'files');
  const archivos = new Map<string, Archivo>();
  const escribir = (key: string, partes: Buffer[]) => {
    const file = path.join(files, key);
    mkdirSync(path.dirname(file), { recursive: true });
    const hash = createHash('sha256');
    const fd = openSync(file, 'w');
    for (const parte of partes) {
      writeSync(fd, parte);
      hash.update(parte);
    }
    closeSync(fd);
    return { size: partes.reduce((n, p) => n + p.length, 0), sha: hash.digest('hex') };
  };
  const guardar = (key: string, partes: Buffer[]) => archivos.set(key, escribir(key, partes));
  guardar(
    'capsulas/7/original.mp4',
    Array.from({ length: 20 }, () => randomBytes(MB)),
  );
  guardar('capsulas/7/hls/1_pieza000.ts', [randomBytes(300_000)]);
  guardar('capsulas/7/hls/manifest.m3u8', [Buffer.from('#EXTM3U\n#EXT-X-VERSION:6\n360p/index.m3u8\n')]);
  guardar('manuales/3/manual.pdf', [randomBytes(MB + 17)]);
  guardar('manuales/3/miniatura-320-v1.webp', [randomBytes(4_000)]);
  guardar('perfiles/12/foto.webp', [randomBytes(9_000)]);
  guardar('materiales/5/material.txt', []);
  for (let i = 0; i < extras; i++) guardar(`materiales/extra/${String(i).padStart(3, '0')}.bin`, [randomBytes(2_000 + i)]);
  // Never keys: the storage's temporary folder, tus uploads, and writes a live server has not finished.
  escribir('.tmp/recibiendo-1', [randomBytes(100)]);
  escribir('.subidas/abc123', [randomBytes(100)]);
  escribir('.subidas/abc123.json', [Buffer.from('{}')]);
  escribir('manuales/4/manual.pdf.4242.tmp', [randomBytes(100)]);
  escribir(`capsulas/8/hls.intento-${randomUUID()}/234p/segmento-00000.ts`, [randomBytes(100)]);
  return { dataDir, archivos };
}

const entorno = (dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...S3_CREDENTIALS, LOG_LEVEL: 'warn' };
  // The installation being migrated still stores on disk (STORAGE_URL unset means file:).
  delete env.STORAGE_URL;
  delete env.DATABASE_URL;
  return env;
};

const migrar = (dataDir: string, args: string[]) => runCli(args, entorno(dataDir), SCRIPT);

/** Every object in the bucket with its size and SHA-256, read through the AWS SDK. */
async function enBucket(bucket: string): Promise<Map<string, Archivo>> {
  const objetos = new Map<string, Archivo>();
  let ContinuationToken: string | undefined;
  do {
    const pagina = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    for (const { Key } of pagina.Contents ?? []) {
      if (!Key) continue;
      const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
      const bytes = (await Body?.transformToByteArray()) ?? new Uint8Array();
      objetos.set(Key, { size: bytes.length, sha: createHash('sha256').update(bytes).digest('hex') });
    }
    ContinuationToken = pagina.NextContinuationToken;
  } while (ContinuationToken);
  return objetos;
}

const ordenado = (m: Map<string, Archivo>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
const copiados = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('copiado: '))
    .map((l) => l.slice('copiado: '.length).replace(/ \(.*\)$/, ''))
    .sort();

describe('npm run migrate-storage', () => {
  it('copies every file into the bucket, nested folders and a 20 MB video included, and nothing reserved or half written', async () => {
    const { dataDir, archivos } = datos();
    const { bucket, url } = await s3.createBucket();

    const { code, stdout, stderr } = await migrar(dataDir, ['--to', url]);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Copiando los archivos de ${path.join(dataDir, 'files')} a ${url}\n`);
    expect(stdout).toContain('copiado: capsulas/7/original.mp4 (20,0 MB)\n');
    expect(copiados(stdout)).toEqual([...archivos.keys()].sort());
    expect(stdout).toMatch(/Archivos: 7 \(21,3 MB\); copiados: 7 \(21,3 MB\); ya estaban: 0; en curso \(omitidos\): 1; .*fallidos: 0\.\n/);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe(`STORAGE_URL=${url}`);
    expect(ordenado(await enBucket(bucket))).toEqual(ordenado(archivos));
  });

  it('run again, copies only what is missing or has another size', async () => {
    const { dataDir, archivos } = datos();
    const { bucket, url } = await s3.createBucket();
    expect((await migrar(dataDir, ['--to', url])).code).toBe(0);
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'perfiles/12/foto.webp' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'capsulas/7/hls/1_pieza000.ts', Body: randomBytes(10) }));

    const { code, stdout } = await migrar(dataDir, ['--to', url]);

    expect(code).toBe(0);
    expect(copiados(stdout)).toEqual(['capsulas/7/hls/1_pieza000.ts', 'perfiles/12/foto.webp']);
    expect(stdout).toMatch(/; copiados: 2 \(301,8 kB\); ya estaban: 5;/);
    expect(ordenado(await enBucket(bucket))).toEqual(ordenado(archivos));
  });

  it('--verificar finds a copy of the right size with other bytes, copies it again and exits with 1', async () => {
    const { dataDir, archivos } = datos();
    const { bucket, url } = await s3.createBucket();
    expect((await migrar(dataDir, ['--to', url])).code).toBe(0);
    const clave = 'manuales/3/manual.pdf';
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: clave, Body: randomBytes(MB + 17) }));

    // Sizes alone cannot tell: that is what --verificar is for.
    const porTamano = await migrar(dataDir, ['--to', url]);
    expect(porTamano.code).toBe(0);
    expect(copiados(porTamano.stdout)).toEqual([]);

    const verificada = await migrar(dataDir, ['--to', url, '--verificar']);
    expect(verificada.code).toBe(1);
    expect(verificada.stdout).toContain(`distinto: ${clave} (mismo tamaño, otro contenido; se copia de nuevo)\n`);
    expect(copiados(verificada.stdout)).toEqual([clave]);
    expect(verificada.stdout).toContain('; verificados por SHA-256: 7; distintos: 1;');
    expect(verificada.stdout).toContain('Había copias distintas del original; ya se copiaron de nuevo.');
    expect(verificada.stdout).not.toContain('STORAGE_URL=');
    expect(ordenado(await enBucket(bucket))).toEqual(ordenado(archivos));

    const otraVez = await migrar(dataDir, ['--to', url, '--verificar']);
    expect(otraVez.code).toBe(0);
    expect(otraVez.stdout).toContain('; ya estaban: 7; verificados por SHA-256: 7; distintos: 0;');
    expect(otraVez.stdout.trimEnd().split('\n').at(-1)).toBe(`STORAGE_URL=${url}`);
  }, 120_000);

  it('refuses a destination that is not a bucket it can read, in Spanish, with exit 2 and nothing copied', async () => {
    const { dataDir } = datos();
    const casos: [string[], string][] = [
      [[], 'Falta --to: la URL del bucket de destino, por ejemplo s3://bucket?endpoint=https://s3.example.cl&region=us-east-1.\n'],
      [
        ['--to', 'https://s3.example.cl/entre-docentes'],
        '--to debe ser la URL de un bucket S3, como s3://bucket?endpoint=https://s3.example.cl&region=us-east-1; no «https://s3.example.cl/entre-docentes».\n',
      ],
      [
        ['--to', 's3://'],
        '--to debe ser la URL de un bucket S3, como s3://bucket?endpoint=https://s3.example.cl&region=us-east-1; no «s3://».\n',
      ],
      [
        ['--to', 'file:'],
        '--to debe ser la URL de un bucket S3, como s3://bucket?endpoint=https://s3.example.cl&region=us-east-1; no «file:».\n',
      ],
      [['--to', s3.url, '--rapido'], 'Opciones no válidas: --to '],
      [
        ['--to', `s3://no-existe-${Date.now()}?endpoint=${s3.endpoint}&region=us-east-1&forcePathStyle=true`],
        'No se pudo leer el bucket de destino (',
      ],
    ];
    for (const [args, mensaje] of casos) {
      const { code, stdout, stderr } = await migrar(dataDir, args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout, args.join(' ')).toBe('');
      expect(stderr.startsWith(mensaje), `${args.join(' ')}: ${stderr}`).toBe(true);
      expect(stderr).toContain('Uso:\n  npm run migrate-storage -- --to');
    }
    expect(await enBucket(s3.bucket)).toEqual(new Map());

    const sinDatos = await runCli(['--to', s3.url], entorno(path.join(dataDir, 'no-existe')), SCRIPT);
    expect(sinDatos.code).toBe(2);
    expect(sinDatos.stderr).toContain(`No existe la carpeta de archivos ${path.join(dataDir, 'no-existe', 'files')}: revise DATA_DIR.\n`);
  }, 60_000);

  it('after a kill -9 in the middle of a copy, the next run copies what is missing and ends complete', async () => {
    const { dataDir, archivos } = datos(60);
    const { bucket, url } = await s3.createBucket();
    const child = spawn(process.execPath, [SCRIPT, '--to', url], { cwd: root, env: entorno(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
    let salida = '';
    child.stdout.on('data', (d) => {
      salida += d;
    });
    const fin = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await esperar(() => salida.includes('copiado: '), 60_000, 'the first file copied');
    child.kill('SIGKILL');
    expect(await fin).toBe('SIGKILL');
    expect(salida).not.toContain('STORAGE_URL=');

    const { code, stdout } = await migrar(dataDir, ['--to', url]);

    expect(code).toBe(0);
    const antes = new Set(copiados(salida));
    const ahora = copiados(stdout);
    expect(ahora.length).toBeGreaterThan(0);
    // Nothing the killed run had finished is copied twice; everything else is copied now.
    expect(ahora.filter((k) => antes.has(k))).toEqual([]);
    expect(stdout).toContain(`; copiados: ${ahora.length} (`);
    expect(stdout).toContain(`; ya estaban: ${archivos.size - ahora.length};`);
    expect(ordenado(await enBucket(bucket))).toEqual(ordenado(archivos));
  }, 120_000);
});

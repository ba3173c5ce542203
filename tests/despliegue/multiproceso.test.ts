/**
 * Outgrowing one machine (issue 19): two web servers and a worker, each with its own data
 * directory, sharing one PostgreSQL database, one JWT_SECRET and one S3-compatible bucket (a real
 * s3rver). What is sent to server A is downloaded, read and streamed through server B, the worker
 * transcodes the videos, and a worker killed mid-transcode is replaced by another that finishes
 * the job once the dead one's lease runs out. Nothing a person sent stays on a web server's disk.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type Manifest, Parser } from 'm3u8-parser';
import sharp from 'sharp';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../src/lib/server/data-dir.server.ts';
import { type ApiClient, apiClient, type Session, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { corriendo, esperar, hijos } from '../support/procesos.ts';
import { S3_CREDENTIALS, startS3, type TestS3 } from '../support/s3.ts';
import { ADMIN, adminAceptaPrivacidad, lastLinkTo, removeDir } from '../support/server.ts';
import { ffprobe, video } from '../support/video.ts';
import { baseDeDatos, filesUnder, type Proceso, startWebServer, startWorker, tail, type WebServer } from './entorno.ts';

/** The PostgreSQL server every machine of this kind runs (as tests/e2e/worker.test.ts), unless DATABASE_URL names another. */
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The client's tus chunk (src/islands/comun/tus.ts): above S3's 5 MB minimum part. */
const PARTE = 5 * 1024 * 1024;
const DOCENTE = { email: 'docente.despliegue@example.cl', password: 'Docente2024x' };

const scratch = mkdtempSync(path.join(os.tmpdir(), 'ed-despliegue-'));
let s3: TestS3 | undefined;
let database: Awaited<ReturnType<typeof baseDeDatos>> | undefined;
const servers: WebServer[] = [];
const workers: Proceso[] = [];
let A: WebServer;
let B: WebServer;
/** What every process of the deployment shares. */
let shared: NodeJS.ProcessEnv;

let admin: Session;
let docente: Session;
/** Clients of each server, signed in as the admin (through A) and the teacher (through B). */
let adminEnA: ApiClient;
let adminEnB: ApiClient;
let docenteEnA: ApiClient;
let docenteEnB: ApiClient;
let catalogo: { area: number; nivel: string; unidad: number; oa: number; tipo: number; metodologia: number };
/** What the tests leave in the bucket, checked at the end. */
const guardados: { material?: number; manual?: number; capsulas: number[] } = { capsulas: [] };

const sha256 = (bytes: ArrayBuffer | Buffer) => createHash('sha256').update(new Uint8Array(bytes)).digest('hex');

function logs(): string {
  return [
    ...servers.map((s, i) => tail(`web server ${i === 0 ? 'A' : 'B'} (${s.url})`, s.output())),
    ...workers.map((w, i) => tail(`worker ${i + 1} (pid ${w.process.pid})`, w.output())),
  ].join('\n');
}

/** Up to the teacher's account: what every test uses. */
async function desplegar(serverUrl: string) {
  s3 = await startS3();
  database = await baseDeDatos(serverUrl);
  shared = {
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...s3.env,
    JOBS_IN_SERVER: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
    // The admin here signs in with a password alone and reads pages (the second factor: tests/e2e/segundo-factor.test.ts).
    TOTP_ADMIN_OBLIGATORIO: 'false',
  };
  // Both web servers start at once on the empty database, as after an upgrade: start-up's advisory
  // lock (database.exclusivo) lets one migrate and seed while the other waits. With
  // JOBS_IN_SERVER=false they are ready (GET /healthz 200, what startWebServer waits for) before
  // any worker runs (issue 28): only the detail for alerting says no worker heart-beats.
  const web = await Promise.allSettled([startWebServer(shared), startWebServer(shared)]);
  for (const s of web) if (s.status === 'fulfilled') servers.push(s.value);
  for (const s of web) if (s.status === 'rejected') throw s.reason;
  [A, B] = servers as [WebServer, WebServer];
  expect(A.dataDir).not.toBe(B.dataDir);
  for (const server of [A, B]) {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ status: 'ok', db: true, razones: [] });
    const detalle = await fetch(`${server.url}/healthz/detalle`);
    expect(detalle.status).toBe(503);
    expect(((await detalle.json()) as { razones: string[] }).razones).toContain('Ningún ejecutor de trabajos está funcionando.');
  }
  workers.push(await startWorker(shared));
  await esperar(
    async () => (await fetch(`${A.url}/healthz/detalle`)).status === 200,
    30_000,
    "A's detail to turn 200 once the worker heart-beats",
  );

  admin = await signIn(A.url, ADMIN);
  // The admin accepts the privacy notice, as at their first sign-in (issue 31), or pages send them to it.
  await adminAceptaPrivacidad(A.url);
  adminEnA = apiClient(A.url, admin.access);
  adminEnB = apiClient(B.url, admin.access);
  // The teacher is invited through A, the worker mails the link, the account is activated through B.
  const invitacion = await adminEnA.POST('/api/admin/usuarios/', {
    body: { email: DOCENTE.email, nombres: 'Marta', apellidos: 'Soto Rivas', admin: false },
  });
  expect(invitacion.response.status, JSON.stringify(invitacion.error)).toBe(201);
  const worker = workers[0];
  if (!worker) throw new Error('no worker');
  const enlace = await lastLinkTo(worker.dataDir, DOCENTE.email);
  const token = decodeURIComponent(new URL(enlace).pathname.split('/').filter(Boolean).at(-1) ?? '');
  const activacion = await apiClient(B.url).POST('/api/usuarios/activar-cuenta/', {
    body: { token, password: DOCENTE.password, password_confirmation: DOCENTE.password, acepta_privacidad: true },
  });
  expect(activacion.response.status, JSON.stringify(activacion.error)).toBe(200);
  docente = await signIn(B.url, DOCENTE);
  docenteEnA = apiClient(A.url, docente.access);
  docenteEnB = apiClient(B.url, docente.access);

  const { data: areas } = await docenteEnB.GET('/api/curriculum_escolar/areas/', { params: { query: { nivel: '07' } } });
  const area = areas?.find((a) => a.codigo === 'MA') ?? areas?.[0];
  if (!area) throw new Error('no area taught in 7° básico');
  const { data: unidades } = await docenteEnB.GET('/api/curriculum_escolar/unidades/', {
    params: { query: { area: area.id, nivel: '07' } },
  });
  const unidad = unidades?.[0];
  if (!unidad) throw new Error(`no unit of area ${area.id} in 7° básico`);
  const [{ data: oas }, { data: tipos }, { data: metodologias }] = await Promise.all([
    docenteEnB.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad.id } } }),
    docenteEnB.GET('/api/bdocente/tipo/'),
    docenteEnB.GET('/api/metodologias/'),
  ]);
  const [oa, tipo, metodologia] = [oas?.[0], tipos?.[0], metodologias?.[0]];
  if (!oa || !tipo || !metodologia) throw new Error('catalogues not seeded');
  catalogo = { area: area.id, nivel: '07', unidad: unidad.id, oa: oa.id, tipo: tipo.id, metodologia: metodologia.id };
}

beforeAll(async () => {
  try {
    await desplegar(DATABASE_URL);
  } catch (error) {
    process.stderr.write(`\n${logs()}\n`);
    throw error;
  }
}, 120_000);

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    process.stderr.write(`\n${logs()}\n`);
  });
});

afterAll(async () => {
  const procesos = [...workers, ...servers];
  await Promise.allSettled(procesos.map((p) => p.stop()));
  for (const p of procesos) removeDir(p.dataDir);
  await Promise.allSettled([database?.drop(), s3?.close()]);
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

/** A thumbnail made from the file (JPEG or WebP that sharp decodes), not the SVG placeholder. */
async function expectRealThumbnail(api: ApiClient, route: '/miniaturas/manuales/{id}/' | '/miniaturas/bdocente/{id}/', id: number) {
  const { response, data } = await api.GET(route, { params: { path: { id } }, parseAs: 'arrayBuffer' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\/(jpeg|webp)$/);
  const bytes = Buffer.from(data ?? new ArrayBuffer(0));
  expect(bytes.subarray(0, 5).toString('latin1')).not.toMatch(/^<svg|^<\?xml/);
  const meta = await sharp(bytes).metadata();
  expect(['jpeg', 'webp']).toContain(meta.format);
  expect(meta.width).toBeGreaterThan(50);
}

function parse(text: string): Manifest {
  const parser = new Parser();
  parser.push(text);
  parser.end();
  return parser.manifest;
}

async function streamingText(api: ApiClient, id: number, file: string): Promise<string> {
  const { response, data } = await api.GET('/streaming/{id}/{file}', { params: { path: { id, file } }, parseAs: 'text' });
  expect(response.status, `${file} of capsule ${id}`).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/);
  return data ?? '';
}

/**
 * The capsule's ladder as a player reads it through `api`'s server: the master playlist, each
 * rendition's playlist, and every segment, which ffprobe reads as H.264 video of the rendition's
 * size starting on a keyframe and lasting what its EXTINF says. Answers the rungs' heights.
 */
async function expectPlayableLadder(api: ApiClient, id: number, seconds: number): Promise<number[]> {
  const master = parse(await streamingText(api, id, 'manifest.m3u8'));
  const variants = master.playlists ?? [];
  expect(variants.length).toBeGreaterThan(0);
  for (const variant of variants) {
    const playlist = parse(await streamingText(api, id, variant.uri));
    expect(playlist.endList).toBe(true);
    expect(playlist.segments.length).toBeGreaterThan(1);
    let total = 0;
    for (const segment of playlist.segments) {
      const { response, data } = await api.GET('/streaming/{id}/{file}', {
        params: { path: { id, file: segment.uri } },
        parseAs: 'arrayBuffer',
      });
      expect(response.status, segment.uri).toBe(200);
      expect(response.headers.get('content-type')).toBe('video/mp2t');
      const file = path.join(scratch, `${id}-${segment.uri}`);
      writeFileSync(file, new Uint8Array(data ?? new ArrayBuffer(0)));
      const probe = ffprobe(file);
      expect(Math.abs(probe.duration - segment.duration), segment.uri).toBeLessThan(0.001);
      expect(probe.startsWithKeyframe, segment.uri).toBe(true);
      expect(probe.video).toMatchObject({ width: variant.attributes.RESOLUTION?.width, height: variant.attributes.RESOLUTION?.height });
      total += segment.duration;
    }
    expect(total).toBeCloseTo(seconds, 0);
  }
  // A player seeking asks for part of a segment: the first TS packet (188 bytes, sync byte 0x47).
  const first = parse(await streamingText(api, id, variants[0]?.uri ?? '')).segments[0]?.uri ?? '';
  const range = await api.GET('/streaming/{id}/{file}', {
    params: { path: { id, file: first } },
    headers: { range: 'bytes=0-187' },
    parseAs: 'arrayBuffer',
  });
  expect(range.response.status).toBe(206);
  const packet = new Uint8Array(range.data ?? new ArrayBuffer(0));
  expect(packet.length).toBe(188);
  expect(packet[0]).toBe(0x47);
  return variants.map((v) => v.attributes.RESOLUTION?.height ?? 0);
}

async function estadoCapsula(api: ApiClient, id: number): Promise<string | undefined> {
  const { data } = await api.GET('/api/capsulas/{id}/', { params: { path: { id } } });
  return data?.estado;
}

async function subirCapsula(titulo: string, bytes: Buffer): Promise<number> {
  const { response, data, error } = await adminEnA.POST('/api/capsulas/', {
    body: {
      titulo,
      descripcion: 'Una clase grabada en **sala**',
      id_area: catalogo.area,
      id_metodologia: catalogo.metodologia,
      id_nivel: '04',
    },
    bodySerializer: multipart({ data: bytes, name: 'clase.mp4', type: 'video/mp4' }),
  });
  expect(response.status, JSON.stringify(error)).toBe(201);
  expect(data?.estado).toBe('procesando');
  const id = data?.id ?? 0;
  guardados.capsulas.push(id);
  return id;
}

describe('two web servers, one worker, one bucket', () => {
  it('each server accepts the sessions the other one started, for the API and the pages', async () => {
    // The admin signed in through A; B knows the token and its groups.
    expect((await adminEnB.GET('/api/admin/trabajos/')).response.status).toBe(200);
    expect((await apiClient(B.url).GET('/api/admin/trabajos/')).response.status).toBe(401);
    // The teacher signed in through B; A knows them, and what they may not do.
    const { data: yo } = await docenteEnA.GET('/api/usuarios/{id}/', { params: { path: { id: docente.usuarioId } } });
    expect(yo?.email).toBe(DOCENTE.email);
    expect((await docenteEnA.GET('/api/admin/trabajos/')).response.status).toBe(403);
    // A page rendered by B for the browser that signed in on A.
    const pagina = await fetch(`${B.url}/capsulas/`, { headers: { cookie: admin.cookie }, redirect: 'manual' });
    expect(pagina.status).toBe(200);
    const anonima = await fetch(`${B.url}/capsulas/`, { redirect: 'manual' });
    expect(anonima.status).toBe(302);
    expect(anonima.headers.get('location')).toMatch(/^\/ingresar\//);
    // A session started on A is renewed on B and ended on B; A then refuses both of its refresh
    // tokens (sessions live in the database, not in a server's memory).
    const otra = await apiClient(A.url).POST('/auth/login/', { body: DOCENTE });
    const refresh = otra.data && 'refresh' in otra.data ? otra.data.refresh : '';
    expect(refresh).not.toBe('');
    const renovada = await apiClient(B.url).POST('/auth/renovar_token/', { body: { refresh } });
    expect(renovada.response.status).toBe(200);
    const siguiente = renovada.data?.refresh ?? '';
    expect(siguiente).not.toBe(refresh);
    expect((await apiClient(A.url, renovada.data?.access).GET('/api/admin/trabajos/')).response.status).toBe(403);
    expect((await apiClient(B.url).POST('/auth/logout/', { body: { refresh: siguiente } })).response.status).toBe(200);
    for (const token of [siguiente, refresh]) {
      const { response, error } = await apiClient(A.url).POST('/auth/renovar_token/', { body: { refresh: token } });
      expect(response.status).toBe(401);
      expect(error?.detail).toBe('Tu sesión expiró. Ingresa nuevamente.');
    }
  });

  it('a material sent with tus to A and resumed on B downloads through B with the same bytes', async () => {
    const archivo = pdf(2, 2 * PARTE + 300_000);
    const metadata = { filename: 'guia-enteros.pdf', filetype: 'application/pdf', destino: 'material' };
    const headers = { authorization: `Bearer ${docente.access}` };
    // A's part: the first chunk, then the connection is given up.
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new Upload(archivo, {
        endpoint: `${A.url}/api/subidas/`,
        headers,
        metadata,
        chunkSize: PARTE,
        retryDelays: [],
        onChunkComplete: (_chunk, aceptados) => {
          if (aceptados >= PARTE) void upload.abort().then(() => resolve(upload.url ?? ''), reject);
        },
        onError: reject,
        onSuccess: () => reject(new Error('the upload finished before it was interrupted')),
      });
      upload.start();
    });
    expect(url).toMatch(new RegExp(`^${A.url}/api/subidas/[0-9a-f]{32}$`));
    const id = url.split('/').at(-1) ?? '';
    // B knows the upload and how much of it arrived at A.
    const estado = await docenteEnB.HEAD('/api/subidas/{id}/', { params: { path: { id }, header: { 'Tus-Resumable': '1.0.0' } } });
    expect(estado.response.status).toBe(200);
    expect(estado.response.headers.get('upload-offset')).toBe(String(PARTE));
    // The rest goes to B, from where A stopped.
    const aceptados: number[] = [];
    await new Promise<void>((resolve, reject) => {
      const upload = new Upload(archivo, {
        endpoint: `${B.url}/api/subidas/`,
        uploadUrl: `${B.url}/api/subidas/${id}`,
        headers,
        chunkSize: PARTE,
        retryDelays: [],
        onChunkComplete: (_chunk, n) => aceptados.push(n),
        onError: reject,
        onSuccess: () => resolve(),
      });
      upload.start();
    });
    expect(aceptados).toEqual([2 * PARTE, archivo.length]);

    const creado = await docenteEnA.POST('/api/bdocente/', {
      body: {
        id_subida: id,
        titulo: 'Guía de números enteros',
        descripcion: 'Ejercicios con **la recta numérica**',
        id_area: catalogo.area,
        id_nivel: catalogo.nivel,
        id_unidad: catalogo.unidad,
        oas: [catalogo.oa],
        tipo_material_docente: catalogo.tipo,
      },
    });
    expect(creado.response.status, JSON.stringify(creado.error)).toBe(201);
    expect(creado.data).toMatchObject({ extension: 'pdf', tamano: archivo.length, paginas: 2 });
    const material = creado.data?.id ?? 0;
    guardados.material = material;

    const descarga = await adminEnB.GET('/api/bdocente/{id}/descargar/', { params: { path: { id: material } }, parseAs: 'arrayBuffer' });
    expect(descarga.response.status).toBe(200);
    expect(descarga.response.headers.get('content-disposition')).toContain('.pdf');
    expect(sha256(descarga.data ?? new ArrayBuffer(0))).toBe(sha256(archivo));
    await expectRealThumbnail(adminEnB, '/miniaturas/bdocente/{id}/', material);
  });

  it('a manual uploaded to A is read through B, whole and by ranges, with a thumbnail of its first page', async () => {
    const archivo = pdf(3, 400_000);
    const creado = await adminEnA.POST('/api/manuales/', {
      body: { titulo: 'Manual de evaluación formativa', descripcion: 'Para **todas** las asignaturas', id_area: catalogo.area },
      bodySerializer: multipart({ data: archivo, name: 'manual.pdf', type: 'application/pdf' }),
    });
    expect(creado.response.status, JSON.stringify(creado.error)).toBe(201);
    expect(creado.data).toMatchObject({ tamano: archivo.length, paginas: 3 });
    const manual = creado.data?.id ?? 0;
    guardados.manual = manual;

    const lectura = await docenteEnB.GET('/api/manuales/{id}/leer/', { params: { path: { id: manual } }, parseAs: 'arrayBuffer' });
    expect(lectura.response.status).toBe(200);
    expect(lectura.response.headers.get('content-type')).toBe('application/pdf');
    expect(lectura.response.headers.get('content-disposition')).toMatch(/^inline/);
    expect(sha256(lectura.data ?? new ArrayBuffer(0))).toBe(sha256(archivo));
    // A PDF viewer asks for the end first (the cross-reference table).
    const desde = archivo.length - 1000;
    const cola = await docenteEnB.GET('/api/manuales/{id}/leer/', {
      params: { path: { id: manual } },
      headers: { range: `bytes=${desde}-` },
      parseAs: 'arrayBuffer',
    });
    expect(cola.response.status).toBe(206);
    expect(cola.response.headers.get('content-range')).toBe(`bytes ${desde}-${archivo.length - 1}/${archivo.length}`);
    expect(Buffer.from(cola.data ?? new ArrayBuffer(0)).equals(archivo.subarray(desde))).toBe(true);
    await expectRealThumbnail(docenteEnB, '/miniaturas/manuales/{id}/', manual);
  });

  it('a capsule uploaded to A is transcoded by the worker and streams through B', async () => {
    const id = await subirCapsula('Fracciones con material concreto', await video({ width: 640, height: 360, seconds: 8 }));
    await expect.poll(() => estadoCapsula(adminEnB, id), { timeout: 60_000, interval: 500 }).toBe('listo');
    const { data } = await docenteEnB.GET('/api/capsulas/{id}/', { params: { path: { id } } });
    expect(data?.duracion).toBeCloseTo(8, 0);
    expect(await expectPlayableLadder(docenteEnB, id, 8)).toEqual([234, 360]);
    const poster = await docenteEnB.GET('/miniaturas/capsulas/{id}/', { params: { path: { id } }, parseAs: 'arrayBuffer' });
    expect(poster.response.headers.get('content-type')).toMatch(/^image\/(jpeg|webp)$/);
    expect((await sharp(Buffer.from(poster.data ?? new ArrayBuffer(0))).metadata()).width).toBeGreaterThan(50);
  }, 120_000);

  it('a worker killed mid-transcode: a new worker on another data directory finishes the capsule', async () => {
    const titulo = 'Clase larga de geometría';
    const primero = workers[0];
    if (!primero) throw new Error('no worker');
    // Long enough that transcoding its two rungs takes this machine's two cores several seconds.
    const id = await subirCapsula(titulo, await video({ width: 640, height: 360, seconds: 30 }));
    const enCurso = async () => {
      const { data } = await adminEnB.GET('/api/admin/trabajos/');
      return data?.en_curso.find((t) => t.descripcion.includes(titulo));
    };
    // The worker has claimed the job and its ffmpeg is at work.
    let ffmpeg = 0;
    await expect
      .poll(
        async () => {
          ffmpeg = hijos(primero.process.pid ?? 0, 'ffmpeg')[0] ?? 0;
          return ffmpeg > 0 && (await enCurso()) !== undefined;
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(true);
    await primero.stop('SIGKILL');
    await esperar(() => !corriendo(ffmpeg), 3000, `ffmpeg ${ffmpeg} to die with its worker`);
    // Nobody finished it: the job is still held by the dead worker's lease.
    expect(await enCurso()).toMatchObject({ tipo: 'capsula-hls', intentos: 1 });
    expect(await estadoCapsula(adminEnB, id)).toBe('procesando');

    const started = Date.now();
    const segundo = await startWorker(shared);
    workers.push(segundo);
    expect(segundo.dataDir).not.toBe(primero.dataDir);
    // The lease is 30 s (renewed every 10 s), then the transcode itself.
    await expect.poll(() => estadoCapsula(adminEnB, id), { timeout: 90_000, interval: 500 }).toBe('listo');
    expect((Date.now() - started) / 1000).toBeLessThan(90);
    const { data: trabajos } = await adminEnA.GET('/api/admin/trabajos/');
    expect(trabajos?.hechos_hoy.find((t) => t.descripcion.includes(titulo))).toMatchObject({ estado: 'hecho', intentos: 2 });
    expect(trabajos?.en_curso.find((t) => t.descripcion.includes(titulo))).toBeUndefined();
    expect(await expectPlayableLadder(docenteEnB, id, 30)).toEqual([234, 360]);
  }, 150_000);

  it('every file lives in the bucket; the web servers keep none on their disks', async () => {
    const client = new S3Client({
      endpoint: s3?.endpoint ?? '',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: S3_CREDENTIALS.AWS_SECRET_ACCESS_KEY },
    });
    const keys: string[] = [];
    try {
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: s3?.bucket ?? '', ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
        token = page.NextContinuationToken;
      } while (token);
    } finally {
      client.destroy();
    }
    expect(keys).toContain(`materiales/${guardados.material}/material.pdf`);
    expect(keys).toContain(`manuales/${guardados.manual}/manual.pdf`);
    expect(guardados.capsulas).toHaveLength(2);
    for (const id of guardados.capsulas) {
      expect(keys).toContain(`capsulas/${id}/original.mp4`);
      expect(keys).toContain(`capsulas/${id}/hls/manifest.m3u8`);
      expect(keys.filter((k) => k.startsWith(`capsulas/${id}/hls/`) && k.endsWith('.ts')).length).toBeGreaterThan(1);
    }
    for (const server of [A, B]) expect(filesUnder(paths(server.dataDir).files), server.url).toEqual([]);
  });
});

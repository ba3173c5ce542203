/**
 * The light version of a capsule (issue 20, 'Versión liviana'): the video job makes an MP4 of the
 * ladder's low rung beside the HLS ladder, stores its size, and Descargar gives it with
 * `?version=liviana` to the same people as the original, whole or by ranges. Real ffmpeg and
 * ffprobe read what comes out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsulas } from '../../src/lib/server/db/schema.server.ts';
import { versionLiviana } from '../../src/lib/server/media/video.server.ts';
import { TRABAJO_HLS } from '../../src/lib/server/services/capsulas.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Sesion, subirCapsula } from '../support/contenido.ts';
import { ffprobe, type VideoOptions } from '../support/video.ts';

let t: TestApi;
let admin: Sesion;
let docente: Sesion;
let dir: string;

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Rosa' });
  docente = await t.session({ nombre: 'Iván' });
  dir = mkdtempSync(path.join(os.tmpdir(), 'ed-liviana-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const NO_DISPONIBLE = 'La versión liviana aún no está disponible';

async function lista(opciones: VideoOptions = {}): Promise<number> {
  const id = await subirCapsula(t, admin.token, opciones);
  expect(await t.jobs.drain()).toBe(1);
  return id;
}

const fila = async (id: number) => (await t.db.select().from(capsulas).where(eq(capsulas.id, id)))[0];
const liviana = (id: number, options: Parameters<TestApi['call']>[2] = { token: docente.token }) =>
  t.call('GET', `/api/capsulas/${id}/descargar/?version=liviana`, options);

/** The answer's bytes in a file of the test's folder, for ffprobe and ffmpeg to read. */
async function aArchivo(res: Response, nombre: string): Promise<string> {
  const file = path.join(dir, nombre);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

/** What ffmpeg says while decoding every frame of the file (nothing when it plays whole). */
function erroresAlDecodificar(file: string): string {
  const salida = spawnSync('ffmpeg', ['-v', 'error', '-nostdin', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
  return `${salida.status === 0 ? '' : `exit ${salida.status}: `}${salida.stderr}`;
}

/** Top-level MP4 boxes in order: the index ('moov') must come before the media ('mdat'). */
function cajas(file: string): string[] {
  const bytes = readFileSync(file);
  const nombres: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    let size = bytes.readUInt32BE(at);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    nombres.push(bytes.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return nombres;
}

describe('the video job makes the light version', () => {
  it('a 234p H.264/AAC MP4 of the whole video, index first, its size stored and given by the API', { timeout: 60_000 }, async () => {
    const id = await lista({ width: 1280, height: 720, seconds: 12 });
    const row = await fila(id);
    const guardado = await t.storage.size(`capsulas/${id}/liviana.mp4`);
    expect(guardado).toBeGreaterThan(0);
    expect(row?.tamano_liviana).toBe(guardado);
    const capsula = await (await t.call('GET', `/api/capsulas/${id}/`, { token: docente.token })).json();
    expect(capsula.tamano_liviana).toBe(guardado);

    const res = await liviana(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(guardado));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Fracciones (liviana).mp4"; filename*=UTF-8''Fracciones%20%28liviana%29.mp4`,
    );
    const file = await aArchivo(res, 'liviana.mp4');
    const original = await aArchivo(await t.call('GET', `/api/capsulas/${id}/descargar/`, { token: docente.token }), 'original.mp4');

    const sonda = ffprobe(file);
    expect(sonda.video).toMatchObject({ codec_name: 'h264', width: 416, height: 234 });
    expect(sonda.audio).toMatchObject({ codec_name: 'aac' });
    expect(sonda.startsWithKeyframe).toBe(true);
    expect(Math.abs(sonda.duration - ffprobe(original).duration)).toBeLessThan(0.1);
    expect(erroresAlDecodificar(file)).toBe('');
    const orden = cajas(file);
    expect(orden[0]).toBe('ftyp');
    expect(orden.indexOf('moov')).toBeGreaterThan(0);
    expect(orden.indexOf('moov')).toBeLessThan(orden.indexOf('mdat'));
    // Much lighter than the original rung by rung: about 250 kbps.
    expect(((guardado ?? 0) * 8) / sonda.duration).toBeLessThan(400_000);
  });

  it('never upscales a small source, and makes it without sound when the source has none', { timeout: 60_000 }, async () => {
    const id = await lista({ width: 320, height: 180, seconds: 3, audio: false });
    const file = await aArchivo(await liviana(id), 'pequena.mp4');
    const sonda = ffprobe(file);
    expect(sonda.video).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    expect(sonda.audio).toBeUndefined();
    expect(Math.abs(sonda.duration - 3)).toBeLessThan(0.1);
    expect(erroresAlDecodificar(file)).toBe('');
  });

  it('a new transcode makes it again (only the original is kept before one)', { timeout: 60_000 }, async () => {
    const id = await lista();
    const antes = (await fila(id))?.tamano_liviana;
    await t.storage.write(`capsulas/${id}/liviana.mp4`, Buffer.from('viejo'));
    await t.jobs.enqueue(TRABAJO_HLS, { id });
    expect(await t.jobs.drain()).toBe(1);
    // x264 on several threads does not give the same bytes twice, so the new file is compared with
    // the first by what it is, not byte for byte: a real MP4 of about the same size, whose size the
    // row now carries.
    const tamano = await t.storage.size(`capsulas/${id}/liviana.mp4`);
    expect((await fila(id))?.tamano_liviana).toBe(tamano);
    expect(Math.abs((tamano ?? 0) - (antes ?? 0))).toBeLessThan((antes ?? 0) * 0.1);
    const res = await liviana(id);
    expect(res.status).toBe(200);
    expect(erroresAlDecodificar(await aArchivo(res, 'de-nuevo.mp4'))).toBe('');
  });

  it('publishes the capsule without it when it cannot be made, as with the poster sizes', { timeout: 60_000 }, async () => {
    // An ffmpeg that makes everything but the light version's copy: the fault cannot be caused
    // from outside, the rest of the job runs the real ffmpeg.
    const bin = path.join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const falso = '#!/bin/sh\nfor a in "$@"; do [ "$a" = aac_adtstoasc ] && { echo refused >&2; exit 1; }; done\nexec ffmpeg "$@"\n';
    writeFileSync(
      path.join(bin, 'ffmpeg'),
      falso.replace('exec ffmpeg', `exec ${spawnSync('sh', ['-c', 'command -v ffmpeg'], { encoding: 'utf8' }).stdout.trim()}`),
      {
        mode: 0o755,
      },
    );
    const antes = process.env.PATH;
    process.env.PATH = `${bin}:${antes}`;
    let id: number;
    try {
      id = await lista();
    } finally {
      process.env.PATH = antes;
    }
    const row = await fila(id);
    expect(row?.estado).toBe('listo');
    expect(row?.tamano_liviana).toBeNull();
    expect(await t.storage.size(`capsulas/${id}/liviana.mp4`)).toBeNull();
    expect(await t.storage.size(`capsulas/${id}/hls/manifest.m3u8`)).toBeGreaterThan(0);
    const res = await liviana(id);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ detail: NO_DISPONIBLE });
  });

  it('leaves nothing behind when the ladder it reads is broken', async () => {
    const hls = path.join(dir, 'roto');
    mkdirSync(hls, { recursive: true });
    const out = path.join(dir, 'roto.mp4');
    const rung = { name: '234p', height: 234, videoKbps: 200, audioKbps: 48 };
    // No playlist at all, an empty one, one naming a segment that is not video, one of binary garbage.
    await expect(versionLiviana(hls, rung, out)).rejects.toThrow();
    expect(existsSync(out)).toBe(false);
    for (const [playlist, segmento] of [
      ['', null],
      ['#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\n234p_000.ts\n#EXT-X-ENDLIST\n', 'esto no es video'],
      [Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)), null],
    ] as const) {
      writeFileSync(path.join(hls, '234p.m3u8'), playlist);
      if (segmento) writeFileSync(path.join(hls, '234p_000.ts'), segmento);
      await expect(versionLiviana(hls, rung, out)).rejects.toThrow();
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe('GET /api/capsulas/{id}/descargar/?version=liviana', () => {
  let id: number;
  let tamano: number;
  beforeAll(async () => {
    id = await lista({ seconds: 4 });
    tamano = (await fila(id))?.tamano_liviana ?? 0;
  });

  it('answers byte ranges, as a player or a resumed download asks', async () => {
    const inicio = await liviana(id, { token: docente.token, headers: { range: 'bytes=0-11' } });
    expect(inicio.status).toBe(206);
    expect(inicio.headers.get('content-range')).toBe(`bytes 0-11/${tamano}`);
    expect(inicio.headers.get('content-type')).toBe('video/mp4');
    expect(
      Buffer.from(await inicio.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
    const entero = Buffer.from(await (await liviana(id)).arrayBuffer());
    const final = await liviana(id, { token: docente.token, headers: { range: 'bytes=-100' } });
    expect(final.status).toBe(206);
    expect(Buffer.from(await final.arrayBuffer()).equals(entero.subarray(-100))).toBe(true);
    const fuera = await liviana(id, { token: docente.token, headers: { range: `bytes=${tamano}-` } });
    expect(fuera.status).toBe(416);
    expect(fuera.headers.get('content-range')).toBe(`bytes */${tamano}`);
  });

  it('gives the original by default and with version=original', async () => {
    const porDefecto = await t.call('GET', `/api/capsulas/${id}/descargar/`, { token: docente.token });
    const explicito = await t.call('GET', `/api/capsulas/${id}/descargar/?version=original`, { token: docente.token });
    expect(explicito.headers.get('content-disposition')).toBe(porDefecto.headers.get('content-disposition'));
    expect(explicito.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await explicito.arrayBuffer()).equals(Buffer.from(await porDefecto.arrayBuffer()))).toBe(true);
  });

  it('refuses any other version with a 400 in Spanish', async () => {
    for (const version of ['LIVIANA', '', 'liviana%20', 'liviana%00', '..%2Fposter.jpg', 'x'.repeat(10_000), '%FF%FE', 'hd']) {
      const res = await t.call('GET', `/api/capsulas/${id}/descargar/?version=${version}`, { token: docente.token });
      expect(res.status, version.slice(0, 20)).toBe(400);
      const { detail } = await res.json();
      expect(detail, version.slice(0, 20)).toMatch(/versión|texto/i);
    }
    const res = await t.call('GET', `/api/capsulas/${id}/descargar/?version=hd`, { token: docente.token });
    expect(await res.json()).toMatchObject({ detail: "La versión debe ser 'original' o 'liviana'" });
  });

  it('answers 404 in Spanish while there is none (capsules made before it, or still processing)', async () => {
    const antigua = await lista();
    await t.db.update(capsulas).set({ tamano_liviana: null }).where(eq(capsulas.id, antigua));
    await t.storage.remove(`capsulas/${antigua}/liviana.mp4`);
    const res = await liviana(antigua);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ detail: NO_DISPONIBLE });
    // The original is still there.
    expect((await t.call('GET', `/api/capsulas/${antigua}/descargar/`, { token: docente.token })).status).toBe(200);

    const enProceso = await subirCapsula(t, admin.token);
    const propia = await liviana(enProceso, { token: admin.token });
    expect(propia.status).toBe(404);
    expect(await propia.json()).toMatchObject({ detail: NO_DISPONIBLE });
    const ajena = await liviana(enProceso);
    expect(ajena.status).toBe(404);
    expect(await ajena.json()).toMatchObject({ detail: 'No se encontró capsula' });
    await t.jobs.drain();
    expect((await liviana(enProceso)).status).toBe(200);
    expect((await liviana(999_999)).status).toBe(404);
  });

  it('checks permissions as for the original: signed in (token or cookie), hidden ones for the author and admins only', async () => {
    expect((await liviana(id, {})).status).toBe(401);
    const conCookie = await liviana(id, { headers: { cookie: `ed_access=${docente.token}` } });
    expect(conCookie.status).toBe(200);
    await conCookie.body?.cancel();

    const oculta = await lista();
    await t.db.update(capsulas).set({ oculto: true }).where(eq(capsulas.id, oculta));
    const otra = await liviana(oculta);
    expect(otra.status).toBe(404);
    expect(await otra.json()).toMatchObject({ detail: 'No se encontró capsula' });
    const autor = await liviana(oculta, { token: admin.token });
    expect(autor.status).toBe(200);
    await autor.body?.cancel();
  });

  it('with a bucket, answers with its direct link, typed video/mp4 and named as the light version', async () => {
    const original = t.storage.urlDirecta;
    const firmados: { key: string; contentType: string; disposition?: string | undefined }[] = [];
    t.storage.urlDirecta = async (key, respuesta) => {
      firmados.push({ key, ...respuesta });
      return `https://cdn.example.test/${key}`;
    };
    try {
      expect((await liviana(id, {})).status).toBe(401);
      const res = await liviana(id);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`https://cdn.example.test/capsulas/${id}/liviana.mp4`);
      expect(firmados).toEqual([
        {
          key: `capsulas/${id}/liviana.mp4`,
          contentType: 'video/mp4',
          disposition: `attachment; filename="Fracciones (liviana).mp4"; filename*=UTF-8''Fracciones%20%28liviana%29.mp4`,
          cacheControl: 'private, no-cache',
        },
      ]);
    } finally {
      t.storage.urlDirecta = original;
    }
  });
});

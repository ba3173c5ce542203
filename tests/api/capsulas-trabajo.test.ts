/**
 * The capsule transcode job on any storage (issue 19): ffmpeg reads a local copy of the original
 * (`storage.local`) and writes into a work folder under the storage's temporary folder; only a
 * finished rendition is adopted into the capsule's folder, replacing the one before it but never
 * the original. The work folder goes however the attempt ends, and a released attempt is not a
 * failure. (tests/e2e/worker.test.ts kills a real worker mid-transcode.)
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANCHOS_MINIATURA } from '../../src/lib/format/miniaturas.ts';
import { capsulas, trabajos } from '../../src/lib/server/db/schema.server.ts';
import { claveVariante } from '../../src/lib/server/media/miniaturas.server.ts';
import { TRABAJO_HLS } from '../../src/lib/server/services/capsulas.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Sesion, subirCapsula } from '../support/contenido.ts';
import { esperar } from '../support/procesos.ts';
import type { VideoOptions } from '../support/video.ts';

let t: TestApi;
let admin: Sesion;

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true });
});
afterAll(() => t.close());

const subir = (opciones: VideoOptions = {}) => subirCapsula(t, admin.token, opciones);

/** Every stored key of the capsule, relative to its folder, segments and rung playlists counted apart. */
async function guardado(id: number) {
  const nombres: string[] = [];
  let segmentos = 0;
  for await (const { key } of t.storage.list(`capsulas/${id}`)) {
    const nombre = key.slice(`capsulas/${id}/`.length);
    if (/^hls\/[0-9a-z]+_\d+\.ts$/.test(nombre)) segmentos++;
    else nombres.push(nombre);
  }
  return { nombres: nombres.sort(), segmentos };
}

const RENDICION = [
  'hls/234p.m3u8',
  'hls/manifest.m3u8',
  'liviana.mp4',
  'original.mp4',
  'poster.jpg',
  ...ANCHOS_MINIATURA.map((a) => claveVariante('poster.jpg', a)),
];

/** This capsule's work folders in the temporary folder. */
const trabajosDe = (id: number) => readdirSync(t.storage.tempDir).filter((n) => n.startsWith(`capsula-${id}-`));

const estado = async (id: number) => (await t.db.select().from(capsulas).where(eq(capsulas.id, id)))[0];

it('adopts the finished rendition beside the original and leaves no work folder', async () => {
  const id = await subir();
  await t.jobs.drain();
  expect(await estado(id)).toMatchObject({ estado: 'listo', mensaje_error: null });
  const { nombres, segmentos } = await guardado(id);
  expect(nombres).toEqual(RENDICION.sort());
  expect(segmentos).toBeGreaterThan(0);
  expect(trabajosDe(id)).toEqual([]);
});

it('a new attempt removes what earlier ones left, here and in storage, and replaces the rendition but not the original', async () => {
  const id = await subir();
  await t.jobs.drain();
  const antes = (await t.storage.size(`capsulas/${id}/original.mp4`)) ?? 0;
  // A dead attempt's work folder on this machine, and a half rendition a version before issue 19 left in place.
  const muerto = path.join(t.storage.tempDir, `capsula-${id}-Ab12Cd`);
  mkdirSync(path.join(muerto, 'rendicion', 'hls'), { recursive: true });
  writeFileSync(path.join(muerto, 'rendicion', 'hls', '234p_000.ts'), 'half');
  await t.storage.write(`capsulas/${id}/hls.intento-0f0f/234p_000.ts`, Buffer.from('half'));
  await t.storage.write(`capsulas/${id}/hls/viejo.m3u8`, Buffer.from('#EXTM3U'));

  await t.jobs.enqueue(TRABAJO_HLS, { id });
  expect(await t.jobs.drain()).toBe(1);
  expect(await estado(id)).toMatchObject({ estado: 'listo' });
  expect((await guardado(id)).nombres).toEqual(RENDICION.sort());
  expect(await t.storage.size(`capsulas/${id}/original.mp4`)).toBe(antes);
  expect(trabajosDe(id)).toEqual([]);
});

it('a released attempt removes its work folder, adopts nothing and is not a failure', { timeout: 90_000 }, async () => {
  // Long enough that ffmpeg is still at work when the runner stops (the aborted ffmpeg itself: hls.test.ts).
  const id = await subir({ seconds: 120 });
  t.jobs.start();
  // Once ffmpeg has written part of the ladder into the attempt's folder.
  const segmento = () =>
    trabajosDe(id).some((d) => {
      const hls = path.join(t.storage.tempDir, d, 'rendicion', 'hls');
      return readdirSync(hls, { withFileTypes: true }).some((f) => f.name.endsWith('.ts'));
    });
  await esperar(
    () => {
      try {
        return segmento();
      } catch {
        return false;
      }
    },
    30_000,
    'a segment in the work folder',
  );
  // The running attempt is released after the grace, and given as long to end.
  await t.jobs.stop({ graceMs: 2_000 });
  expect(trabajosDe(id)).toEqual([]);

  expect(await estado(id)).toMatchObject({ estado: 'procesando', mensaje_error: null });
  const [job] = await t.db
    .select()
    .from(trabajos)
    .where(sql`${trabajos.datos}->>'id' = ${String(id)}`);
  // Back in the queue, the attempt not counted.
  expect(job).toMatchObject({ estado: 'pendiente', intentos: 0 });
  expect((await guardado(id)).nombres).toEqual(['original.mp4']);

  // The next attempt finishes it.
  expect(await t.jobs.drain()).toBe(1);
  expect(await estado(id)).toMatchObject({ estado: 'listo' });
  expect((await guardado(id)).nombres).toEqual(RENDICION.sort());
});

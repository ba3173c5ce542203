/**
 * Captions and transcripts in Chromium (issue 20), as a person sees them: an admin uploads a
 * capsule with an .srt at creation, adds, replaces and removes a .vtt on the edit page, and reads
 * the Spanish message for a broken file (from the browser's check and from the server's); a
 * refused caption file never loses the capsule just created. The player offers the captions in
 * media-chrome's menu, shows a cue, remembers the choice for the next capsule, and renders it
 * legibly at 375 px; 'Ver transcripción' opens and a click seeks the video; a link with `?t=`
 * opens the capsule at that second; a search for a word said in the video says where.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, it as base, beforeAll, describe, expect } from 'vitest';
import { MOBILE } from '../support/browser.ts';
import { multipart } from '../support/form.ts';
import { video } from '../support/video.ts';
import {
  abrirComo,
  apiComo,
  avisos,
  hidratada,
  mensajeDe,
  navegador,
  PROCESO_MS,
  publicarCapsula,
  url,
  violacionesGraves,
} from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-subtitulos-e2e-'));
const VIDEO = path.join(carpeta, 'clase.mp4');

/** A word no other capsule says: the search must find it in the captions only. */
const PALABRA = `zorzalino${Date.now().toString(36).replace(/\d/g, '')}`;

/** Two paragraphs: the second starts at 0:09, after a pause; the searched word is said at 0:09. */
const VTT_ES = `WEBVTT

00:00:00.200 --> 00:00:02.500
Hola a todos, hoy trabajamos fracciones.

00:00:02.500 --> 00:00:04.000
Primero con material concreto.

00:00:09.000 --> 00:00:11.800
Después decimos ${PALABRA} en voz alta.
`;
const SRT_EN = `1
00:00:00,200 --> 00:00:04,000
Hello everyone, today we work with fractions.

2
00:00:09,000 --> 00:00:11,800
Then we say it aloud.
`;
/** Timings and no text: it passes the browser's first look, the server refuses it. */
const SIN_TEXTO = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  browser = await navegador();
  writeFileSync(VIDEO, await video({ width: 640, height: 360, seconds: 3 }));
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

type Api = Awaited<ReturnType<typeof apiComo>>['api'];

function subirSubtitulo(api: Api, id: number, idioma: 'es' | 'en', texto: string, nombre: string) {
  return api.POST('/api/capsulas/{id}/subtitulos/', {
    params: { path: { id } },
    body: { idioma, archivo: nombre },
    bodySerializer: multipart({ data: texto, name: nombre, type: 'text/plain' }),
  });
}

/** A capsule of the admin's, with Spanish and English captions, once its video is ready. */
async function capsulaConSubtitulos(titulo: string): Promise<{ id: number; titulo: string }> {
  const { api } = await apiComo();
  const capsula = await publicarCapsula(api, {
    titulo,
    descripcion: 'Fracciones con material concreto.',
    video: await video({ seconds: 12 }),
    alCrear: async (id) => {
      expect((await subirSubtitulo(api, id, 'es', VTT_ES, 'clase.vtt')).response.status).toBe(201);
      expect((await subirSubtitulo(api, id, 'en', SRT_EN, 'class.srt')).response.status).toBe(201);
    },
  });
  return { id: capsula.id, titulo };
}

const it = base.extend<{ conSubtitulos: { id: number; titulo: string } }>({
  conSubtitulos: [
    // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this pattern.
    async ({}, use) => {
      await use(await capsulaConSubtitulos(`Fracciones dichas en voz alta ${Date.now()}`));
    },
    { scope: 'file' },
  ],
});
const CON_CAPSULA = PROCESO_MS + 60_000;

/** The captions of a capsule, as the API lists them. */
async function idiomasDe(id: number): Promise<string[]> {
  const { api } = await apiComo();
  const { data } = await api.GET('/api/capsulas/{id}/subtitulos/', { params: { path: { id } } });
  return (data?.subtitulos ?? []).map((s) => s.idioma);
}

async function llenarCapsula(page: Page, titulo: string): Promise<void> {
  await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
  await page.getByLabel('Título', { exact: true }).fill(titulo);
  await page.getByLabel('Área').selectOption({ index: 1 });
  await page.getByLabel('Metodología activa').selectOption({ index: 1 });
  await page.getByLabel('Nivel').selectOption({ label: '4° básico' });
  await page.getByLabel('Descripción').fill('Una cápsula con subtítulos.');
}

/** The id of the admin's capsule with this title (still processing or ready). */
async function idPorTitulo(titulo: string): Promise<number> {
  const { api } = await apiComo();
  const { data } = await api.GET('/api/capsulas/procesando');
  const capsula = (data?.capsulas ?? []).find((c) => c.titulo === titulo);
  if (!capsula) throw new Error(`no capsule titled ${titulo}`);
  return capsula.id;
}

describe('captions at upload', () => {
  it('sends an .srt with the new capsule, in Español unless another language is chosen', async () => {
    const page = await abrirComo(browser);
    await page.goto('/capsulas/subir');
    await hidratada(page);
    expect(await page.getByRole('group', { name: 'Subtítulos (opcional)' }).count()).toBe(1);
    expect(await page.getByLabel('Idioma de los subtítulos').inputValue()).toBe('es');
    const titulo = `Cápsula con SRT ${Date.now()}`;
    await llenarCapsula(page, titulo);
    await page
      .getByLabel('Archivo de subtítulos')
      .setInputFiles({ name: 'clase.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT_EN) });
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/capsulas/'), { timeout: 60_000 });
    await expect.poll(() => avisos(page)).toContain(`Capsula ${titulo} agregada exitosamente!`);
    const id = await idPorTitulo(titulo);
    expect(await idiomasDe(id)).toEqual(['es']);
  }, 90_000);

  it('refuses a file that is not captions before anything is sent, with the Spanish message under the field', async () => {
    const page = await abrirComo(browser);
    await page.goto('/capsulas/subir');
    await hidratada(page);
    const titulo = `No se sube ${Date.now()}`;
    await llenarCapsula(page, titulo);
    const enviados: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' || r.method() === 'PATCH') enviados.push(r.url());
    });
    await page.getByLabel('Archivo de subtítulos').setInputFiles({ name: 'foto.vtt', mimeType: 'text/vtt', buffer: PNG });
    expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe('El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('subtitulo-archivo');
    expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe('El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido');
    expect(page.url()).toBe(url('/capsulas/subir'));
    expect(enviados).toEqual([]);
  });

  it('keeps the capsule when the server refuses its captions: says so and opens its edit page to try again', async () => {
    const page = await abrirComo(browser);
    await page.goto('/capsulas/subir');
    await hidratada(page);
    const titulo = `Subtítulos rechazados ${Date.now()}`;
    await llenarCapsula(page, titulo);
    await page
      .getByLabel('Archivo de subtítulos')
      .setInputFiles({ name: 'vacio.vtt', mimeType: 'text/vtt', buffer: Buffer.from(SIN_TEXTO) });
    await expect.poll(() => page.getByLabel('Archivo de subtítulos').getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((u) => /^\/capsulas\/editar\/\d+$/.test(u.pathname), { timeout: 60_000 });
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    expect(id).toBe(await idPorTitulo(titulo));
    await expect
      .poll(() => avisos(page, 'alert'))
      .toContain(
        `La cápsula ${titulo} se subió, pero sus subtítulos no se guardaron. El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido. Los subtítulos del archivo no tienen texto. Puedes agregarlos en esta página.`,
      );
    expect(await page.locator('.subtitulos-capsula [role="alert"]').textContent()).toBe(
      'Los subtítulos que elegiste al subir la cápsula no se guardaron. Revisa el archivo y agrégalos aquí.',
    );
    expect(await idiomasDe(id)).toEqual([]);
  }, 90_000);
});

describe('captions on the edit page', () => {
  it(
    'adds a .vtt, shows the server’s and the browser’s messages for broken files, replaces and removes',
    async ({ conSubtitulos }) => {
      const { api } = await apiComo();
      await api.DELETE('/api/capsulas/{id}/subtitulos/{idioma}/', { params: { path: { id: conSubtitulos.id, idioma: 'en' } } });
      const page = await abrirComo(browser);
      await page.goto(`/capsulas/editar/${conSubtitulos.id}`);
      await hidratada(page);
      const seccion = page.getByRole('region', { name: 'Subtítulos' });
      expect(await seccion.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Español/)]);

      // A broken file: the browser's check, then one only the server can judge.
      await page.getByLabel('Idioma de los subtítulos').selectOption({ label: 'Inglés' });
      await page
        .getByLabel('Archivo de subtítulos')
        .setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
      expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe('El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido');
      const campo = page.getByLabel('Archivo de subtítulos');
      await campo.setInputFiles({ name: 'nada.vtt', mimeType: 'text/vtt', buffer: Buffer.alloc(0) });
      expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe('El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido');
      const enorme = Buffer.from(`WEBVTT\n\n${'00:00:01.000 --> 00:00:02.000\nbla bla bla bla bla bla bla bla\n\n'.repeat(20_000)}`);
      await campo.setInputFiles({ name: 'enorme.vtt', mimeType: 'text/vtt', buffer: enorme });
      expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe('El archivo de subtítulos supera el tamaño máximo permitido (1 MB)');
      await campo.setInputFiles({ name: 'vacio.vtt', mimeType: 'text/vtt', buffer: Buffer.from(SIN_TEXTO) });
      await expect.poll(() => campo.getAttribute('aria-invalid')).toBeNull();
      await page.getByRole('button', { name: 'Agregar subtítulos' }).click();
      expect(await mensajeDe(page, 'Archivo de subtítulos')).toBe(
        'El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido. Los subtítulos del archivo no tienen texto.',
      );
      await expect.poll(() => avisos(page, 'alert')).toContain('No se pudieron guardar los subtítulos');
      expect(await idiomasDe(conSubtitulos.id)).toEqual(['es']);

      // A good one.
      await page
        .getByLabel('Archivo de subtítulos')
        .setInputFiles({ name: 'class.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT_ES) });
      await page.getByRole('button', { name: 'Agregar subtítulos' }).click();
      await expect.poll(() => avisos(page)).toContain('Subtítulos en Inglés guardados');
      expect(await seccion.getByRole('listitem').allTextContents()).toEqual([
        expect.stringMatching(/^Español/),
        expect.stringMatching(/^Inglés/),
      ]);
      expect(await idiomasDe(conSubtitulos.id)).toEqual(['es', 'en']);

      // Reemplazar: a broken file says why under its row; a good one replaces the English captions.
      const elegir = async (datos: { name: string; mimeType: string; buffer: Buffer }) => {
        const [selector] = await Promise.all([
          page.waitForEvent('filechooser'),
          page.getByRole('button', { name: 'Reemplazar subtítulos en Inglés' }).click(),
        ]);
        await selector.setFiles(datos);
      };
      await elegir({ name: 'foto.srt', mimeType: 'application/x-subrip', buffer: PNG });
      const reemplazar = page.getByRole('button', { name: 'Reemplazar subtítulos en Inglés' });
      await expect.poll(() => reemplazar.getAttribute('aria-describedby')).toBe('subtitulo-en-error');
      expect(await page.locator('#subtitulo-en-error').textContent()).toBe(
        'El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido',
      );
      await elegir({ name: 'class.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT_EN) });
      await expect.poll(() => page.locator('#subtitulo-en-error').count()).toBe(0);
      await expect
        .poll(async () => (await page.request.get(url(`/streaming/${conSubtitulos.id}/subtitulos-en.vtt`))).text())
        .toMatch(/Hello everyone/);

      // Quitar, asked first; Cancelar keeps them.
      await page.getByRole('button', { name: 'Quitar subtítulos en Inglés' }).click();
      const dialogo = page.getByRole('dialog', { name: 'Quitar subtítulos' });
      expect(await dialogo.textContent()).toContain('¿Quitar los subtítulos en Inglés?');
      await dialogo.getByRole('button', { name: 'Cancelar' }).click();
      expect(await idiomasDe(conSubtitulos.id)).toEqual(['es', 'en']);
      await page.getByRole('button', { name: 'Quitar subtítulos en Inglés' }).click();
      await dialogo.getByRole('button', { name: 'Quitar' }).click();
      await expect.poll(() => avisos(page)).toContain('Subtítulos en Inglés quitados');
      expect(await seccion.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Español/)]);
      expect(await idiomasDe(conSubtitulos.id)).toEqual(['es']);
      expect(await violacionesGraves(page)).toEqual([]);

      // Back as the other tests expect it.
      expect((await subirSubtitulo(api, conSubtitulos.id, 'en', SRT_EN, 'class.srt')).response.status).toBe(201);
    },
    CON_CAPSULA,
  );
});

/**
 * Where two screenshots of the player differ above row `hasta` (the cue drawn on one only): its
 * height and width in pixels, and the share of its pixels that are dark (the box) and white (the letters).
 */
async function cajaDelCue(con: Buffer, sin: Buffer, hasta: number) {
  const px = (datos: Buffer, i: number) => datos[i] ?? 0;
  const [a, b] = await Promise.all([con, sin].map((png) => sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  if (!a || !b) throw new Error('no screenshots');
  const { width, height } = a.info;
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (let y = 0; y < Math.min(height, hasta); y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const cambio =
        Math.abs(px(a.data, i) - px(b.data, i)) +
        Math.abs(px(a.data, i + 1) - px(b.data, i + 1)) +
        Math.abs(px(a.data, i + 2) - px(b.data, i + 2));
      // Both shots are of one paused frame, so any change is the cue's: a dark box over a dark part
      // of the frame changes it only a little, and a coarser threshold cut a row off its height.
      if (cambio > 6) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  let [oscuros, blancos, total] = [0, 0, 0];
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) {
      const i = (y * width + x) * 3;
      const luz = 0.2126 * px(a.data, i) + 0.7152 * px(a.data, i + 1) + 0.0722 * px(a.data, i + 2);
      total += 1;
      if (luz < 60) oscuros += 1;
      if (luz > 220) blancos += 1;
    }
  return { alto: y1 - y0 + 1, ancho: x1 - x0 + 1, oscuros: oscuros / Math.max(total, 1), blancos: blancos / Math.max(total, 1) };
}

/**
 * A screenshot once nothing moves: on pause the controls show and the cue rises above them with a
 * 0.2 s transition, and a shot taken in the middle of it cuts the box at the control bar.
 */
async function capturaQuieta(zona: Locator): Promise<Buffer> {
  let anterior = await zona.screenshot();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const actual = await zona.screenshot();
    if (actual.equals(anterior)) return actual;
    anterior = actual;
  }
  throw new Error('the player kept moving for 3 s');
}

/** The text of the cues the video shows now, per showing track. */
const cuesVisibles = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector('hls-video') as HTMLVideoElement;
    return [...video.textTracks]
      .filter((t) => t.mode === 'showing')
      .map((t) => ({ idioma: t.language, cues: [...(t.activeCues ?? [])].map((c) => (c as VTTCue).text) }));
  });

/** The first two Spanish lines (the video may have moved on to the second when looked at). */
const PRIMERAS = /^(Hola a todos, hoy trabajamos fracciones\.|Primero con material concreto\.)$/;

const tiempo = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.currentTime ?? 0);

async function elegirSubtitulos(page: Page, opcion: string): Promise<void> {
  await page.getByRole('button', { name: 'subtítulos', exact: true }).click();
  // The items sit in the menu's shadow root, with no role Playwright's role engine reads.
  await page.locator('media-captions-menu media-chrome-menu-item', { hasText: opcion }).click();
}

describe('the player', () => {
  it(
    'offers the captions, shows a cue, remembers the choice for the next capsule and forgets it when turned off',
    async ({ conSubtitulos }) => {
      const page = await abrirComo(browser);
      await page.goto(`/capsulas/${conSubtitulos.id}`);
      expect(
        // The page's own tracks (hls-video-element copies them into its shadow <video>).
        await page.evaluate(() =>
          [...document.querySelectorAll('hls-video > track')].map((t) => [
            t.getAttribute('srclang'),
            t.getAttribute('label'),
            t.getAttribute('src'),
          ]),
        ),
      ).toEqual([
        ['es', 'Español', `/streaming/${conSubtitulos.id}/subtitulos-es.vtt`],
        ['en', 'Inglés', `/streaming/${conSubtitulos.id}/subtitulos-en.vtt`],
      ]);
      await expect.poll(() => page.getByRole('button', { name: 'subtítulos', exact: true }).isVisible()).toBe(true);
      expect(await cuesVisibles(page)).toEqual([]);
      await elegirSubtitulos(page, 'Español');
      await expect.poll(() => page.evaluate(() => localStorage.getItem('ed-subtitulos'))).toBe('es');
      await page.getByRole('button', { name: 'Reproducir' }).click();
      await expect.poll(() => cuesVisibles(page), { timeout: 20_000 }).toEqual([{ idioma: 'es', cues: [expect.stringMatching(PRIMERAS)] }]);

      // The next capsule page opened starts with Spanish captions showing, untouched.
      const siguiente = await page.context().newPage();
      await siguiente.goto(`/capsulas/${conSubtitulos.id}`);
      await siguiente.getByRole('button', { name: 'Reproducir' }).click();
      await expect
        .poll(() => cuesVisibles(siguiente), { timeout: 20_000 })
        .toEqual([{ idioma: 'es', cues: [expect.stringMatching(PRIMERAS)] }]);
      await siguiente.close();

      // Off: remembered too.
      await elegirSubtitulos(page, 'Apagado');
      await expect.poll(() => cuesVisibles(page)).toEqual([]);
      expect(await page.evaluate(() => localStorage.getItem('ed-subtitulos'))).toBe('no');
      await page.reload();
      await page.getByRole('button', { name: 'Reproducir' }).click();
      await expect.poll(() => tiempo(page), { timeout: 20_000 }).toBeGreaterThan(0.5);
      expect(await cuesVisibles(page)).toEqual([]);
    },
    CON_CAPSULA,
  );

  it(
    'draws the captions legibly on a 375 px phone: 16 px letters, white on a dark box, above the controls',
    async ({ conSubtitulos }) => {
      const page = await abrirComo(browser, undefined, MOBILE);
      await page.goto(`/capsulas/${conSubtitulos.id}`);
      await page.evaluate(() => localStorage.setItem('ed-subtitulos', 'es'));
      await page.reload();
      await page.getByRole('button', { name: 'Reproducir' }).click();
      await expect.poll(() => cuesVisibles(page), { timeout: 20_000 }).toEqual([{ idioma: 'es', cues: [expect.any(String)] }]);
      await page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.pause());
      // The same paused frame with and without the cue: what differs is the cue's box. The play
      // button's tooltip, shown while the pointer or the focus is on it, would cover the box's
      // lower rows in both shots: both go elsewhere.
      const reproductor = page.locator('[data-reproductor]');
      await page.mouse.move(1, 1);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const con = await capturaQuieta(reproductor);
      const captura = process.env.ED_CAPTURAS;
      if (captura) writeFileSync(path.join(captura, 'subtitulos-375.png'), con);
      await page.evaluate(() => {
        for (const pista of document.querySelector<HTMLVideoElement>('hls-video')?.textTracks ?? []) pista.mode = 'disabled';
      });
      await expect.poll(() => cuesVisibles(page)).toEqual([]);
      const sin = await capturaQuieta(reproductor);
      // Above the control bar, where the cue rises while the controls show (the CC button's icon changes too).
      const [cajaReproductor, barra] = await Promise.all([reproductor.boundingBox(), page.locator('.reproductor-tiempo').boundingBox()]);
      const caja = await cajaDelCue(con, sin, Math.floor((barra?.y ?? 0) - (cajaReproductor?.y ?? 0)));
      // 16 px letters: the box painted behind them is their font's content area, never less than
      // the 16 px em (17 to 19 px with the fonts Debian's Chromium picks). Chromium's own size
      // there (5 % of the video's height) would paint about 12.
      expect(caja.alto).toBeGreaterThanOrEqual(16);
      expect(caja.ancho).toBeLessThanOrEqual(MOBILE.width);
      expect(caja.oscuros).toBeGreaterThan(0.5);
      expect(caja.blancos).toBeGreaterThan(0.03);
    },
    CON_CAPSULA,
  );

  it(
    'opens at the second a link names (?t=)',
    async ({ conSubtitulos }) => {
      const page = await abrirComo(browser);
      await page.goto(`/capsulas/${conSubtitulos.id}?t=9`);
      await page.getByRole('button', { name: 'Reproducir' }).click();
      await expect.poll(() => tiempo(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(9);
    },
    CON_CAPSULA,
  );
});

describe('Ver transcripción', () => {
  it(
    'is closed at first, reads as timestamped paragraphs in Spanish, offers English, and a click seeks and plays',
    async ({ conSubtitulos }) => {
      const page = await abrirComo(browser);
      await page.goto(`/capsulas/${conSubtitulos.id}`);
      const transcripcion = page.locator('details.transcripcion');
      expect(await transcripcion.getAttribute('open')).toBeNull();
      await page.getByText('Ver transcripción').click();
      const parrafos = transcripcion.locator('ol.parrafos-transcripcion > li');
      expect(await parrafos.allInnerTexts()).toEqual([
        expect.stringMatching(/^0:00\s+Hola a todos, hoy trabajamos fracciones\. Primero con material concreto\.$/),
        expect.stringMatching(new RegExp(`^0:09\\s+Después decimos ${PALABRA} en voz alta\\.$`)),
      ]);
      expect(await transcripcion.getByRole('link', { name: 'Español' }).getAttribute('aria-current')).toBe('true');

      await parrafos.nth(1).getByRole('link').click();
      await expect.poll(() => tiempo(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(9);
      expect(await page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.paused)).toBe(false);
      expect(new URL(page.url()).search).toBe('');

      await transcripcion.getByRole('link', { name: 'Inglés' }).click();
      await page.waitForURL((u) => u.searchParams.get('transcripcion') === 'en');
      expect(await page.locator('details.transcripcion').getAttribute('open')).not.toBeNull();
      expect(await page.locator('ol.parrafos-transcripcion > li').first().innerText()).toMatch(/^0:00\s+Hello everyone/);
      expect(await page.locator('ol.parrafos-transcripcion').getAttribute('lang')).toBe('en');
      expect(await violacionesGraves(page)).toEqual([]);
    },
    CON_CAPSULA,
  );
});

describe('the search', () => {
  it(
    'finds a word said in the video and says where: mencionado en el minuto 0:09, linking to that second',
    async ({ conSubtitulos }) => {
      const page = await abrirComo(browser);
      await page.goto(`/capsulas/?${new URLSearchParams({ titulo: PALABRA })}`);
      const tarjeta = page.locator('.tarjeta-contenido', { hasText: conSubtitulos.titulo.slice(0, 40) });
      expect(await tarjeta.count()).toBe(1);
      expect(await tarjeta.locator('.mencion-tarjeta').innerText()).toBe(
        `Mencionado en el minuto 0:09: «Después decimos ${PALABRA} en voz alta.»`,
      );
      expect(await tarjeta.getByRole('link').getAttribute('href')).toBe(`/capsulas/${conSubtitulos.id}?t=9`);
      await tarjeta.getByRole('link').click();
      await page.waitForURL(url(`/capsulas/${conSubtitulos.id}?t=9`));
    },
    CON_CAPSULA,
  );
});

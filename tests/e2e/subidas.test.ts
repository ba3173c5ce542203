/**
 * Resumable uploads in Chromium (issue 18, decision 0041): an admin uploads a capsule video of
 * several 5 MB chunks through the page on a slow link. (a) The network is cut in the middle (CDP
 * offline) and restored: the drop zone says so, the upload goes on from where the server has it
 * (no second upload is created) and the capsule is created and plays. (b) The page is reloaded
 * mid-upload: the drop zone offers 'Continuar la subida de clase.mp4 (N %)', and picking the same
 * file continues from the server's offset, not from zero.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abrir, apiComo, avisos, hidratada, ingresarPorApi, navegador, url } from './helpers.ts';

let browser: Browser;
const carpeta = mkdtempSync(path.join(os.tmpdir(), 'ed-subidas-e2e-'));
const VIDEO = path.join(carpeta, 'clase.mp4');
/** The client's chunk (src/islands/comun/tus.ts). */
const PARTE = 5 * 1024 * 1024;
// ffmpeg and the HLS job share the machine's two cores with the browser: processing takes a while.
const PROCESO_MS = 120_000;
/** Slow enough to act in the middle of the upload, fast enough for a short test. */
const SUBIDA_LENTA = 2 * 1024 * 1024;

/**
 * A real 3-second video whose noise defeats compression: about 20 MB, so several chunks. Made
 * in about a second, with the same sources as tests/support/video.ts.
 */
function videoGrande(out: string): number {
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=3'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'],
    ...['-vf', 'noise=alls=80:allf=t+u', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-crf', '4', '-preset', 'ultrafast'],
    ...['-c:a', 'aac', '-shortest', out],
  ]);
  return statSync(out).size;
}

let tamano = 0;

beforeAll(async () => {
  browser = await navegador();
  tamano = videoGrande(VIDEO);
  expect(tamano).toBeGreaterThan(3 * PARTE);
});
afterAll(async () => {
  await browser?.close();
  rmSync(carpeta, { recursive: true, force: true });
});

/** The tus requests the page sends, in order. */
function peticionesTus(page: Page): Request[] {
  const lista: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/subidas/')) lista.push(r);
  });
  return lista;
}

const offsetDe = async (r: Request) => Number((await r.allHeaders())['upload-offset']);

async function red(cdp: CDPSession, { offline = false, subida = -1 } = {}): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', { offline, latency: 0, downloadThroughput: -1, uploadThroughput: subida });
}

/** The drop zone's progress: bytes on the server (or on their way) out of the file's size. */
const progreso = (page: Page) =>
  page.locator('.subida-tus progress').evaluate((p) => (p instanceof HTMLProgressElement ? p.value / p.max : -1));

async function abrirFormulario(): Promise<{ page: Page; cdp: CDPSession }> {
  const page = await abrir(browser);
  await ingresarPorApi(page);
  await page.goto('/capsulas/subir');
  await hidratada(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  return { page, cdp };
}

async function completar(page: Page, titulo: string): Promise<void> {
  await page.getByLabel('Título', { exact: true }).fill(titulo);
  await page.getByLabel('Área').selectOption({ label: 'Matemática' });
  await page.getByLabel('Metodología activa').selectOption({ label: 'Aula Invertida' });
  await page.getByLabel('Nivel').selectOption({ label: '4° básico' });
  await page.getByLabel('Descripción').fill('Una clase subida con una **conexión inestable**.');
}

/** The capsule's id once the list shows it (its video ready), waiting as capsulas.test.ts does. */
async function capsulaLista(titulo: string): Promise<number> {
  const { api } = await apiComo();
  let id = 0;
  await expect
    .poll(
      async () => {
        const { data } = await api.GET('/api/capsulas/', { params: { query: { titulo } } });
        id = data?.capsula.find((c) => c.titulo === titulo)?.id ?? 0;
        return id;
      },
      { timeout: PROCESO_MS, interval: 1000 },
    )
    .toBeGreaterThan(0);
  return id;
}

describe('a capsule video on a connection that drops', () => {
  it('goes on from where the server has it after the network comes back, and the capsule plays', async () => {
    const { page, cdp } = await abrirFormulario();
    const tus = peticionesTus(page);
    const titulo = `Subida con cortes ${Date.now()}`;
    await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
    await completar(page, titulo);
    await red(cdp, { subida: SUBIDA_LENTA });
    await page.getByRole('button', { name: 'Guardar' }).click();

    // Mid-upload: percentage, speed and time left, and the controls.
    await expect.poll(() => progreso(page), { timeout: 30_000 }).toBeGreaterThan(0.25);
    expect(await page.locator('.subida-tus .cifras').textContent()).toMatch(/^\d+ % · [\d,]+ MB de [\d,]+ MB$/);
    await expect.poll(() => page.locator('.subida-tus .estado-subida').textContent()).toMatch(/^[\d,]+\s(KB|MB)\/s · quedan \d+ (s|min)$/);
    expect(await page.getByRole('button', { name: 'Pausar' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancelar la subida' }).isVisible()).toBe(true);

    // The network goes: the drop zone says so and the form keeps waiting.
    await red(cdp, { offline: true, subida: SUBIDA_LENTA });
    await expect
      .poll(() => page.locator('.subida-tus .estado-subida').textContent())
      .toBe('Sin conexión: la subida continuará cuando vuelva la red.');
    const cortada = tus.length;
    expect(page.url()).toBe(url('/capsulas/subir'));

    // It comes back: the same upload continues from the server's offset.
    await red(cdp, { subida: SUBIDA_LENTA });
    await page.waitForURL(url('/capsulas/'), { timeout: 60_000 });
    await red(cdp);
    await expect.poll(() => avisos(page)).toContain(`Capsula ${titulo} agregada exitosamente!`);
    expect(tus.filter((r) => r.method() === 'POST')).toHaveLength(1);
    const despues = tus.slice(cortada).filter((r) => r.method() === 'PATCH');
    expect(despues.length).toBeGreaterThan(0);
    expect(await offsetDe(despues[0] as Request)).toBeGreaterThan(0.25 * tamano);

    // The capsule is processed, then plays.
    const id = await capsulaLista(titulo);
    await page.goto(`/capsulas/${id}`);
    // Nothing plays by itself (issue 20): the person presses play.
    await page.getByRole('button', { name: 'Reproducir' }).click();
    const tiempo = () => page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.currentTime ?? 0);
    await expect.poll(tiempo, { timeout: 30_000 }).toBeGreaterThan(0.5);
  }, 300_000);
});

describe('a capsule video when the page is reloaded mid-upload', () => {
  it("offers 'Continuar la subida de clase.mp4 (N %)' and, with the same file picked again, continues from there", async () => {
    const { page, cdp } = await abrirFormulario();
    const titulo = `Subida tras recargar ${Date.now()}`;
    await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
    await completar(page, titulo);
    await red(cdp, { subida: SUBIDA_LENTA });
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => progreso(page), { timeout: 30_000 }).toBeGreaterThan(0.4);

    // The form asks before leaving a video that is going up; the person leaves anyway.
    page.on('dialog', (d) => void d.accept());
    await page.reload();
    await hidratada(page);
    await red(cdp, { subida: SUBIDA_LENTA });
    const oferta = page.locator('.subida-pendiente strong');
    await expect.poll(() => oferta.textContent(), { timeout: 15_000 }).toMatch(/^Continuar la subida de clase\.mp4 \(\d+ %\)$/);
    const ofrecido = Number((await oferta.textContent())?.match(/\((\d+) %\)/)?.[1]);
    expect(ofrecido).toBeGreaterThanOrEqual(20);
    expect(await page.locator('.subida-pendiente').textContent()).toContain(
      `Elige de nuevo el mismo archivo y la subida seguirá desde el ${ofrecido} %.`,
    );

    // The same file again: it continues at once, from the server's offset, with no new upload.
    const tus = peticionesTus(page);
    await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
    await expect.poll(() => tus.filter((r) => r.method() === 'PATCH').length, { timeout: 15_000 }).toBeGreaterThan(0);
    const primera = tus.find((r) => r.method() === 'PATCH') as Request;
    expect(await offsetDe(primera)).toBeGreaterThanOrEqual(Math.floor((ofrecido / 100) * tamano));
    expect(tus.filter((r) => r.method() === 'POST')).toHaveLength(0);
    expect(await progreso(page)).toBeGreaterThanOrEqual(ofrecido / 100);

    await red(cdp);
    await completar(page, titulo);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(url('/capsulas/'), { timeout: 60_000 });
    await expect.poll(() => avisos(page)).toContain(`Capsula ${titulo} agregada exitosamente!`);
    // Used by the capsule, the upload is forgotten: nothing is offered any more.
    await page.goto('/capsulas/subir');
    await hidratada(page);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::')))).toEqual([]);
    expect(await page.locator('.subida-pendiente').count()).toBe(0);
  }, 300_000);
});

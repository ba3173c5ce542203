/**
 * Resumable uploads in Chromium (issue 18, decision 0041): an admin uploads a capsule video of
 * several 5 MB chunks through the page on a slow link. (a) The network is cut in the middle (CDP
 * offline) and restored: the drop zone says so, the upload goes on from where the server has it
 * (no second upload is created) and the capsule is created and plays. (b) The page is reloaded
 * mid-upload: the drop zone offers 'Continuar la subida de clase.mp4 (N %)', and picking the same
 * file continues from the server's offset, not from zero; that capsule plays too. (c) Pausar
 * holds the upload where the server has it and Reanudar continues from there; Cancelar deletes
 * it on the server and the form returns to editing. (d) A file that is no video once its bytes
 * arrive is refused under the drop zone with the server's message.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signIn } from '../support/client.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN } from '../support/server.ts';
import { ffmpeg } from '../support/video.ts';
import { abrir, apiComo, avisos, hidratada, ingresarPorApi, mensajeDe, navegador, url } from './helpers.ts';

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
async function videoGrande(out: string): Promise<number> {
  await ffmpeg([
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
  tamano = await videoGrande(VIDEO);
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

/** Once processed, the capsule's page plays it; nothing plays by itself (issue 20): the person presses play. */
async function seReproduce(page: Page, titulo: string): Promise<void> {
  const id = await capsulaLista(titulo);
  await page.goto(`/capsulas/${id}`);
  await page.getByRole('button', { name: 'Reproducir' }).click();
  const tiempo = () => page.evaluate(() => document.querySelector<HTMLVideoElement>('hls-video')?.currentTime ?? 0);
  await expect.poll(tiempo, { timeout: 30_000 }).toBeGreaterThan(0.5);
}

/** The path of the upload the page created ('/api/subidas/{id}'), from the creation's answer. */
async function subidaCreada(tus: Request[]): Promise<string> {
  await expect.poll(() => tus.some((r) => r.method() === 'POST'), { timeout: 15_000 }).toBe(true);
  const respuesta = await (tus.find((r) => r.method() === 'POST') as Request).response();
  expect(respuesta?.status()).toBe(201);
  return new URL((await respuesta?.headerValue('location')) ?? '', url('/')).pathname;
}

let token: Promise<string> | undefined;
/** The server's answer to HEAD for an upload, asked as its owner (the admin) with a Bearer token. */
async function enServidor(ruta: string): Promise<{ status: number; offset: number }> {
  token ??= signIn(inject('baseUrl'), ADMIN).then((s) => s.access);
  const access = await token;
  const res = await fetch(url(`${ruta}/`), { method: 'HEAD', headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${access}` } });
  return { status: res.status, offset: Number(res.headers.get('upload-offset')) };
}

/** The remembered uploads of the page (tus-js-client's entries in localStorage). */
const recordadas = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::')));

/** The capsule form filled in and sent with the video on a slow link: the tus requests it makes, and the upload's path. */
async function enviarLento(titulo: string): Promise<{ page: Page; cdp: CDPSession; tus: Request[]; ruta: string }> {
  const { page, cdp } = await abrirFormulario();
  const tus = peticionesTus(page);
  await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
  await completar(page, titulo);
  await red(cdp, { subida: SUBIDA_LENTA });
  await page.getByRole('button', { name: 'Guardar' }).click();
  const ruta = await subidaCreada(tus);
  await expect.poll(() => progreso(page), { timeout: 30_000 }).toBeGreaterThan(0.25);
  return { page, cdp, tus, ruta };
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
    await seReproduce(page, titulo);
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
    expect(await recordadas(page)).toEqual([]);
    expect(await page.locator('.subida-pendiente').count()).toBe(0);

    // The capsule made of the two halves is processed, then plays.
    await seReproduce(page, titulo);
  }, 300_000);
});

describe('Pausar, Reanudar and Cancelar', () => {
  it("Pausar holds the upload where the server has it, and Reanudar continues from the server's offset", async () => {
    const titulo = `Subida en pausa ${Date.now()}`;
    const { page, cdp, tus, ruta } = await enviarLento(titulo);
    const estado = page.locator('.subida-tus .estado-subida');

    await page.getByRole('button', { name: 'Pausar' }).click();
    await expect.poll(() => estado.textContent()).toBe('En pausa');
    expect(await page.getByRole('button', { name: 'Reanudar' }).isVisible()).toBe(true);
    // The chunk on its way is cut; HEAD waits for the server to store what came of it.
    const pausada = await enServidor(ruta);
    expect(pausada.status).toBe(200);
    expect(pausada.offset).toBeGreaterThan(0);
    expect(pausada.offset).toBeLessThan(tamano);
    const cifras = await page.locator('.subida-tus .cifras').textContent();

    // Paused, nothing more goes: no PATCH for longer than a moving upload takes to send a chunk
    // at this speed, and the server's offset and the drop zone's figures stay where they were.
    const otroPatch = page.waitForRequest((r) => r.method() === 'PATCH', { timeout: (PARTE / SUBIDA_LENTA) * 1000 + 1000 });
    await expect(otroPatch).rejects.toThrow(/Timeout/);
    expect(await enServidor(ruta)).toEqual(pausada);
    expect(await page.locator('.subida-tus .cifras').textContent()).toBe(cifras);
    expect(await estado.textContent()).toBe('En pausa');

    // Reanudar: the same upload continues from the server's offset, not from zero.
    const antes = tus.length;
    await page.getByRole('button', { name: 'Reanudar' }).click();
    await expect.poll(() => tus.slice(antes).some((r) => r.method() === 'PATCH'), { timeout: 15_000 }).toBe(true);
    expect(await offsetDe(tus.slice(antes).find((r) => r.method() === 'PATCH') as Request)).toBe(pausada.offset);
    await page.waitForURL(url('/capsulas/'), { timeout: 60_000 });
    await red(cdp);
    await expect.poll(() => avisos(page)).toContain(`Capsula ${titulo} agregada exitosamente!`);
    expect(tus.filter((r) => r.method() === 'POST')).toHaveLength(1);
  }, 300_000);

  it('Cancelar deletes the upload on the server, forgets it here and returns the form to editing, with no error', async () => {
    const titulo = `Subida cancelada ${Date.now()}`;
    const { page, cdp, ruta } = await enviarLento(titulo);
    expect(await recordadas(page)).toHaveLength(1);

    await page.getByRole('button', { name: 'Cancelar la subida' }).click();
    // Terminated on the server (tus DELETE): the upload is gone.
    await expect.poll(async () => [404, 410].includes((await enServidor(ruta)).status), { timeout: 15_000 }).toBe(true);
    await red(cdp);
    expect(await recordadas(page)).toEqual([]);

    // Back to editing: what was written stays, the file can be sent again, nothing went wrong.
    expect(page.url()).toBe(url('/capsulas/subir'));
    expect(await page.locator('.subida-tus').count()).toBe(0);
    expect(await page.getByLabel('Título', { exact: true }).inputValue()).toBe(titulo);
    expect(await page.locator('.archivo-elegido strong').textContent()).toBe('clase.mp4');
    expect(await page.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);
    expect(await page.getByLabel('Video', { exact: true }).getAttribute('aria-invalid')).not.toBe('true');
    expect(await avisos(page)).toEqual([]);
  }, 300_000);
});

describe('a file that is no video once its bytes arrive', () => {
  it("is refused under the drop zone with the server's message, and nothing is left to continue", async () => {
    const { page } = await abrirFormulario();
    const tus = peticionesTus(page);
    // A PDF named like a video: the browser's check (the name's type) lets it go up.
    await page.getByLabel('Video', { exact: true }).setInputFiles({ name: 'clase-falsa.mp4', mimeType: 'video/mp4', buffer: pdf() });
    await completar(page, `Subida que no es video ${Date.now()}`);
    await page.getByRole('button', { name: 'Guardar' }).click();

    expect(await mensajeDe(page, 'Video')).toBe('El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov');
    const ultima = tus.filter((r) => r.method() === 'PATCH').at(-1) as Request;
    expect((await ultima.response())?.status()).toBe(400);
    expect(await recordadas(page)).toEqual([]);
    expect(page.url()).toBe(url('/capsulas/subir'));
  }, 60_000);
});

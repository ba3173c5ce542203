/**
 * The built server on a machine without ffmpeg and poppler (issue 28): its PATH holds none of
 * them. It starts and is ready at once; it takes a PDF with PDF.js; a video answers 503 with the
 * server's fault in Spanish; /healthz/detalle names the tools; the start-up box says what to
 * install. Running as root with apt-get, it installs ffmpeg by itself in the background and then
 * takes the video (the apt-get here is a stand-in that links the machine's own ffmpeg: a test
 * cannot uninstall and reinstall Debian's packages).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HERRAMIENTA_NO_DISPONIBLE } from '../../src/lib/server/media/herramientas.server.ts';
import { newPage } from '../support/browser.ts';
import { signIn } from '../support/client.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, type RunningServer, removeDir, startServer } from '../support/server.ts';
import { videoFile } from '../support/video.ts';
import { hidratada, mensajeDe, navegador } from './helpers.ts';

const carpetas: string[] = [];
let server: RunningServer | undefined;
let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterEach(async () => {
  await server?.stop();
  if (server) removeDir(server.dataDir);
  server = undefined;
});
afterAll(async () => {
  await browser?.close();
  for (const c of carpetas) rmSync(c, { recursive: true, force: true });
});

const VIDEO = path.join(pathVacio(), 'clase.mp4');
await videoFile(VIDEO, { seconds: 2 });

/** A PATH of one folder, holding only what the test puts there. */
function pathVacio(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-sin-herramientas-'));
  carpetas.push(dir);
  return dir;
}

async function catalogos(url: string, token: string) {
  const leer = async (ruta: string) => (await fetch(`${url}${ruta}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const areas = (await leer('/api/curriculum_escolar/areas/')) as { id: number; codigo: string }[];
  const area = areas.find((a) => a.codigo === 'MA') ?? areas[0];
  const metodologias = (await leer('/api/metodologias/')) as { id: number }[];
  const niveles = (await leer(`/api/curriculum_escolar/niveles/?area=${area?.id}`)) as { codigo: string }[];
  return { area: area?.id ?? 0, metodologia: metodologias[0]?.id ?? 0, nivel: niveles[0]?.codigo ?? '' };
}

async function subirVideo(url: string, token: string) {
  const cat = await catalogos(url, token);
  const form = new FormData();
  for (const [k, v] of Object.entries({
    titulo: 'Fracciones',
    descripcion: 'Una clase',
    id_area: String(cat.area),
    id_metodologia: String(cat.metodologia),
    id_nivel: cat.nivel,
  }))
    form.append(k, v);
  form.append('archivo', new Blob([new Uint8Array(readFileSync(VIDEO))], { type: 'video/mp4' }), 'clase.mp4');
  return fetch(`${url}/api/capsulas/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

async function subirManual(url: string, token: string) {
  const cat = await catalogos(url, token);
  const form = new FormData();
  for (const [k, v] of Object.entries({ titulo: 'Didáctica de la Matemática', descripcion: 'Estrategias', id_area: String(cat.area) }))
    form.append(k, v);
  form.append('archivo', new Blob([new Uint8Array(pdf(2))], { type: 'application/pdf' }), 'manual.pdf');
  return fetch(`${url}/api/manuales/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

const esRoot = process.getuid?.() === 0;

describe('a machine without ffmpeg or poppler', () => {
  it("starts ready, takes a PDF with PDF.js, answers a video with the server's fault and says what to install", async () => {
    server = await startServer({ env: { PATH: pathVacio(), INSTALAR_HERRAMIENTAS: 'false' } });
    const { url } = server;
    expect(server.output()).toContain(
      `Falta ffmpeg para procesar videos. Instálalo con: ${esRoot ? '' : 'sudo '}apt-get install -y ffmpeg`,
    );
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const { access } = await signIn(url, ADMIN);

    const manual = await subirManual(url, access);
    expect(manual.status, await manual.clone().text()).toBe(201);
    expect(((await manual.json()) as { paginas: number }).paginas).toBe(2);

    const capsula = await subirVideo(url, access);
    expect(capsula.status).toBe(503);
    expect(capsula.headers.get('retry-after')).toBe('300');
    expect(((await capsula.json()) as { detail: string }).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.video);
    const capsulas = (await (await fetch(`${url}/api/capsulas/procesando`, { headers: { authorization: `Bearer ${access}` } })).json()) as {
      capsulas: unknown[];
    };
    expect(capsulas.capsulas).toEqual([]);

    // From the machine itself, without signing in: what an alerting agent on the server reads.
    const detalle = await fetch(`${url}/healthz/detalle`);
    expect(detalle.status).toBe(503);
    const cuerpo = (await detalle.json()) as { herramientas: { nombre: string; disponible: boolean; origen: string }[]; razones: string[] };
    expect(cuerpo.herramientas.map((h) => [h.nombre, h.disponible, h.origen])).toEqual([
      ['ffmpeg', false, 'sistema'],
      ['ffprobe', false, 'sistema'],
      ['pdf', true, 'incluido'],
    ]);
    expect(cuerpo.razones).toContain('La herramienta ffmpeg no funciona (ffmpeg): ffmpeg not found on PATH.');
    // Still ready: a missing tool never takes a web server out of service.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // In the browser: the file goes up (tus), and the server's sentence shows under it, not 'no es válido'.
    const page = await newPage(browser, url);
    expect((await page.request.post(`${url}/auth/login/`, { data: ADMIN })).status()).toBe(200);
    await page.goto('/capsulas/subir');
    await hidratada(page);
    await page.getByLabel('Video', { exact: true }).setInputFiles(VIDEO);
    await page.getByLabel('Título', { exact: true }).fill('Fracciones');
    await page.getByLabel('Área').selectOption({ label: 'Matemática' });
    await page.getByLabel('Metodología activa').selectOption({ label: 'Aula Invertida' });
    await page.getByLabel('Nivel').selectOption({ label: '4° básico' });
    await page.getByLabel('Descripción').fill('Una clase');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => mensajeDe(page, 'Video'), { timeout: 30_000 }).toBe(HERRAMIENTA_NO_DISPONIBLE.video);
    if (process.env.CAPTURA) await page.screenshot({ path: process.env.CAPTURA, fullPage: true });
    expect(page.url()).toBe(`${url}/capsulas/subir`);
  });

  it('installs ffmpeg by itself when it runs as root with apt-get, then takes the video', { timeout: 180_000 }, async () => {
    const bin = pathVacio();
    const registro = path.join(bin, 'apt.log');
    writeFileSync(
      path.join(bin, 'apt-get'),
      [
        '#!/bin/sh',
        `echo "$DEBIAN_FRONTEND $*" >> "${registro}"`,
        'if [ "$1" = install ]; then',
        '  /bin/sleep 1',
        `  /bin/ln -sf /usr/bin/ffmpeg "${bin}/ffmpeg"`,
        `  /bin/ln -sf /usr/bin/ffprobe "${bin}/ffprobe"`,
        'fi',
        '',
      ].join('\n'),
    );
    chmodSync(path.join(bin, 'apt-get'), 0o755);
    server = await startServer({ env: { PATH: bin, LOG_LEVEL: 'info' } });
    const { url } = server;
    const { access } = await signIn(url, ADMIN);
    if (!esRoot) {
      // Not root: it only says what to run, and never calls apt-get.
      expect(server.output()).toContain('Instálalo con: sudo apt-get install -y ffmpeg');
      expect(existsSync(registro)).toBe(false);
      expect((await subirVideo(url, access)).status).toBe(503);
      return;
    }
    expect(server.output()).toContain('Falta ffmpeg para procesar videos: se está instalando (apt-get install -y ffmpeg).');
    await expect.poll(() => (existsSync(registro) ? readFileSync(registro, 'utf8') : ''), { timeout: 30_000 }).toContain('install');
    expect(readFileSync(registro, 'utf8').split('\n')).toEqual([
      'noninteractive update -qq',
      'noninteractive install -y -qq --no-install-recommends ffmpeg',
      '',
    ]);
    await expect.poll(() => server?.output() ?? '', { timeout: 30_000 }).toContain('media tools installed');

    const capsula = await subirVideo(url, access);
    expect(capsula.status, await capsula.clone().text()).toBe(201);
    const { id } = (await capsula.json()) as { id: number };
    await expect
      .poll(
        async () => {
          const res = await fetch(`${url}/api/capsulas/${id}/`, { headers: { authorization: `Bearer ${access}` } });
          return ((await res.json()) as { estado?: string }).estado;
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe('listo');
    const detalle = (await (await fetch(`${url}/healthz/detalle`)).json()) as { herramientas: { nombre: string; disponible: boolean }[] };
    expect(detalle.herramientas.every((h) => h.disponible)).toBe(true);
  });
});

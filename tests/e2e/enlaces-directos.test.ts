/**
 * Direct links in a browser (issue 19, decision 0042): a server whose files are in a bucket
 * (s3rver) with STORAGE_PRESIGNED_SECONDS above 0 answers a capsule's segments with a redirect to
 * a presigned link, and the capsule's page allows the bucket's origin in its Content-Security-
 * Policy, so Chromium's player (hls.js) follows them and plays, with no violation reported.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, violacionesCsp } from '../support/browser.ts';
import { apiClient, type Session, signIn } from '../support/client.ts';
import { formData } from '../support/form.ts';
import { startS3, type TestS3 } from '../support/s3.ts';
import { ADMIN, type RunningServer, removeDir, startServer } from '../support/server.ts';
import { video } from '../support/video.ts';

let s3: TestS3;
let server: RunningServer;
let admin: Session;

beforeAll(async () => {
  s3 = await startS3();
  server = await startServer({ env: { ...s3.env, STORAGE_PRESIGNED_SECONDS: '120' } });
  admin = await signIn(server.url, ADMIN);
});
afterAll(async () => {
  await server?.stop();
  if (server) removeDir(server.dataDir);
  await s3?.close();
});

/** A capsule uploaded by the admin and transcoded by the server's own job runner. */
async function capsulaLista(): Promise<number> {
  const api = apiClient(server.url, admin.access);
  const [{ data: areas }, { data: metodologias }] = await Promise.all([
    api.GET('/api/curriculum_escolar/areas/'),
    api.GET('/api/metodologias/'),
  ]);
  const campos = {
    titulo: 'Fracciones en la recta',
    descripcion: 'Una clase',
    id_area: String(areas?.[0]?.id),
    id_metodologia: String(metodologias?.[0]?.id),
    id_nivel: '04',
  };
  const subida = await fetch(`${server.url}/api/capsulas/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.access}` },
    body: formData(campos, { data: await video({ width: 640, height: 360, seconds: 20 }), name: 'clase.mp4', type: 'video/mp4' }),
  });
  expect(subida.status).toBe(201);
  const { id } = (await subida.json()) as { id: number };
  await expect
    .poll(async () => (await api.GET('/api/capsulas/{id}/', { params: { path: { id } } })).data?.estado, { timeout: 60_000 })
    .toBe('listo');
  return id;
}

it('plays a capsule whose segments come from the bucket, within the page’s policy', async () => {
  const id = await capsulaLista();
  const pagina = await fetch(`${server.url}/capsulas/${id}`, { headers: { cookie: admin.cookie } });
  expect(pagina.status).toBe(200);
  const csp = (pagina.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
  expect(csp).toContain(`connect-src 'self' ${s3.endpoint}`);
  expect(csp).toContain(`media-src 'self' blob: ${s3.endpoint}`);

  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    await context.addCookies(
      admin.cookie.split('; ').map((c) => {
        const [name = '', ...valor] = c.split('=');
        return { name, value: valor.join('='), url: server.url };
      }),
    );
    const page = await context.newPage();
    const segmentos: { status: number; url: string }[] = [];
    page.on('response', (r) => {
      if (/\.ts(\?|$)/.test(new URL(r.url()).pathname)) segmentos.push({ status: r.status(), url: r.url() });
    });
    await page.goto(`${server.url}/capsulas/${id}`);
    // Nothing plays by itself (issue 20): the person presses play.
    await page.getByRole('button', { name: 'Reproducir' }).click();
    await page.waitForFunction(() => (Reflect.get(document.querySelector('hls-video') ?? {}, 'currentTime') ?? 0) > 1, undefined, {
      timeout: 30_000,
    });
    // Each segment asked of this server was answered by a redirect, and fetched from the bucket.
    const aqui = segmentos.filter((s) => s.url.startsWith(server.url));
    const delBalde = segmentos.filter((s) => s.url.startsWith(`${s3.endpoint}/`));
    expect(aqui.length).toBeGreaterThan(0);
    expect(aqui.every((s) => s.status === 302)).toBe(true);
    expect(delBalde.length).toBeGreaterThan(0);
    expect(delBalde.every((s) => s.status === 200 && s.url.includes('X-Amz-Signature='))).toBe(true);
    expect(violacionesCsp()).toEqual([]);
  } finally {
    await browser.close();
  }
});

/**
 * Direct links (issue 19, decision 0042): with files in a bucket and STORAGE_PRESIGNED_SECONDS
 * above 0, a material's or capsule's download, a manual's reading and download and an HLS segment
 * answer 302 to the storage's short-lived link, after the same permission checks; playlists,
 * thumbnails and photos still come from this server. The storage here is the harness's own with
 * `urlDirecta` answering a link, as a bucket's would (tests/api/almacenamiento.test.ts signs real
 * ones on s3rver): what is tested is the routes' side.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { capsulas, manuales, materiales, oas } from '../../src/lib/server/db/schema.server.ts';
import type { Storage } from '../../src/lib/server/storage/storage.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { catalogos, type Sesion, subirCapsula, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;
let admin: Sesion;
let docente: Sesion;
let otra: Sesion;
let original: Storage['urlDirecta'];
/** What the routes asked the storage to sign. */
const firmados: { key: string; contentType: string; disposition?: string | undefined; cacheControl?: string | undefined }[] = [];

const CDN = 'https://cdn.example.test';

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true });
  docente = await t.session({ nombre: 'Pablo' });
  otra = await t.session({ nombre: 'Irene' });
  original = t.storage.urlDirecta;
  t.storage.urlDirecta = async (key, respuesta) => {
    firmados.push({ key, ...respuesta });
    return `${CDN}/${key}?X-Amz-Expires=300`;
  };
});
afterEach(() => {
  firmados.length = 0;
});
afterAll(async () => {
  t.storage.urlDirecta = original;
  await t.close();
});

async function material(token = docente.token): Promise<number> {
  const u = await unidadDe(t, 'MA', '07');
  const cat = await catalogos(t);
  const campos = {
    id_area: String(u.id_area),
    id_nivel: '07',
    id_unidad: String(u.id),
    oas: '',
    titulo: 'Guía de números enteros',
    descripcion: 'Ejercicios',
    tipo_material_docente: String(cat.tipo),
  };
  const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, u.id)).limit(1);
  campos.oas = String(oa?.id ?? 0);
  const res = await t.call('POST', '/api/bdocente/', { token, body: formData(campos, { data: pdf(2), name: 'guía.pdf' }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id;
}

async function manual(): Promise<number> {
  const cat = await catalogos(t);
  const campos = { titulo: 'Didáctica de la Matemática', descripcion: 'Estrategias', id_area: String(cat.area) };
  const res = await t.call('POST', '/api/manuales/', {
    token: admin.token,
    body: formData(campos, { data: pdf(2), name: 'manual.pdf', type: 'application/pdf' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id;
}

async function capsula(): Promise<number> {
  const id = await subirCapsula(t, admin.token);
  await t.jobs.drain();
  return id;
}

function esEnlace(res: Response, key: string) {
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(`${CDN}/${key}?X-Amz-Expires=300`);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
}

describe('after the permission checks, big files answer with the storage’s direct link', () => {
  it('a material’s download, with its name and type for the bucket to answer with', async () => {
    const id = await material();
    const res = await t.call('GET', `/api/bdocente/${id}/descargar/`, { token: otra.token });
    esEnlace(res, `materiales/${id}/material.pdf`);
    expect(firmados).toEqual([
      {
        key: `materiales/${id}/material.pdf`,
        contentType: 'application/octet-stream',
        disposition: `attachment; filename="Guia de numeros enteros.pdf"; filename*=UTF-8''Gu%C3%ADa%20de%20n%C3%BAmeros%20enteros.pdf`,
        cacheControl: 'private, no-cache',
      },
    ]);
    // The cookie the download link carries is enough, as for the streamed answer.
    esEnlace(
      await t.call('GET', `/api/bdocente/${id}/descargar/`, { headers: { cookie: `ed_access=${otra.token}` } }),
      `materiales/${id}/material.pdf`,
    );
    // Its thumbnail is embedded by the pages: it still comes from here.
    const miniatura = await t.call('GET', `/miniaturas/bdocente/${id}/`, { token: otra.token });
    expect(miniatura.status).toBe(200);
    expect(miniatura.headers.get('content-type')).toBe('image/jpeg');
  });

  it('a manual’s reading (inline, as a PDF) and download', async () => {
    const id = await manual();
    const key = `manuales/${id}/manual.pdf`;
    esEnlace(await t.call('GET', `/api/manuales/${id}/leer/`, { token: docente.token }), key);
    esEnlace(await t.call('GET', `/api/manuales/${id}/descargar/`, { token: docente.token }), key);
    expect(firmados.map(({ contentType, disposition }) => [contentType, disposition?.split(';')[0]])).toEqual([
      ['application/pdf', 'inline'],
      ['application/octet-stream', 'attachment'],
    ]);
  });

  it('an HLS segment and the original video, never a playlist or the poster', async () => {
    const id = await capsula();
    const segmento = await t.call('GET', `/streaming/${id}/234p_000.ts`, { token: docente.token });
    esEnlace(segmento, `capsulas/${id}/hls/234p_000.ts`);
    expect(firmados[0]).toMatchObject({ contentType: 'video/mp2t', cacheControl: 'private, max-age=3600' });
    for (const lista of ['manifest.m3u8', '234p.m3u8']) {
      const res = await t.call('GET', `/streaming/${id}/${lista}`, { token: docente.token });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^#EXTM3U/);
    }
    expect((await t.call('GET', `/miniaturas/capsulas/${id}/`, { token: docente.token })).status).toBe(200);
    esEnlace(await t.call('GET', `/api/capsulas/${id}/descargar/`, { token: docente.token }), `capsulas/${id}/original.mp4`);
    expect(firmados.map((f) => f.key)).toEqual([`capsulas/${id}/hls/234p_000.ts`, `capsulas/${id}/original.mp4`]);
  });
});

describe('a request the checks refuse never gets a link', () => {
  it('signed out: 401', async () => {
    const idMaterial = await material();
    const idManual = await manual();
    const idCapsula = await capsula();
    for (const ruta of [
      `/api/bdocente/${idMaterial}/descargar/`,
      `/api/manuales/${idManual}/leer/`,
      `/api/manuales/${idManual}/descargar/`,
      `/streaming/${idCapsula}/234p_000.ts`,
      `/api/capsulas/${idCapsula}/descargar/`,
    ]) {
      const res = await t.call('GET', ruta);
      expect(res.status, ruta).toBe(401);
      expect(res.headers.get('location'), ruta).toBeNull();
    }
    expect(firmados).toEqual([]);
  });

  it('hidden by moderation, or a capsule not ready: 404 to anyone but its author and admins', async () => {
    const idMaterial = await material();
    const idManual = await manual();
    const idCapsula = await capsula();
    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, idMaterial));
    await t.db.update(manuales).set({ oculto: true }).where(eq(manuales.id, idManual));
    await t.db.update(capsulas).set({ oculto: true }).where(eq(capsulas.id, idCapsula));
    const rutas = [
      `/api/bdocente/${idMaterial}/descargar/`,
      `/api/manuales/${idManual}/leer/`,
      `/api/manuales/${idManual}/descargar/`,
      `/streaming/${idCapsula}/234p_000.ts`,
      `/api/capsulas/${idCapsula}/descargar/`,
    ];
    for (const ruta of rutas) {
      const res = await t.call('GET', ruta, { token: otra.token });
      expect(res.status, ruta).toBe(404);
      expect(res.headers.get('location'), ruta).toBeNull();
    }
    expect(firmados).toEqual([]);
    // Its author still gets the link (admins for the capsule and the manual).
    esEnlace(await t.call('GET', rutas[0] ?? '', { token: docente.token }), `materiales/${idMaterial}/material.pdf`);

    await t.db.update(capsulas).set({ oculto: false, estado: 'procesando' }).where(eq(capsulas.id, idCapsula));
    expect((await t.call('GET', `/streaming/${idCapsula}/234p_000.ts`, { token: admin.token })).status).toBe(404);
    // A segment that does not exist is a 404 too, not a link to nothing.
    await t.db.update(capsulas).set({ estado: 'listo' }).where(eq(capsulas.id, idCapsula));
    expect((await t.call('GET', `/streaming/${idCapsula}/234p_999.ts`, { token: admin.token })).status).toBe(404);
  });
});

describe('without direct links (disk, or STORAGE_PRESIGNED_SECONDS=0)', () => {
  it('the server streams the file as before', async () => {
    const id = await material();
    const firmar = t.storage.urlDirecta;
    t.storage.urlDirecta = original;
    try {
      const res = await t.call('GET', `/api/bdocente/${id}/descargar/`, { token: otra.token, headers: { range: 'bytes=0-3' } });
      expect(res.status).toBe(206);
      expect(await res.text()).toBe('%PDF');
    } finally {
      t.storage.urlDirecta = firmar;
    }
  });
});

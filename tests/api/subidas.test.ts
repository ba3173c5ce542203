/**
 * Resumable uploads (tus 1.0.0, issue 18): the protocol with raw requests for its edges, the real
 * tus-js-client over HTTP (through the server's own request guard), and a finished upload used
 * once, by its owner, as the file of a create form.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { Upload } from 'tus-js-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { metodologias, oas, subidas, tiposMaterial } from '../../src/lib/server/db/schema.server.ts';
import { configureServer, guard, type HttpLimits } from '../../src/lib/server/http/guard.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Sesion, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { video } from '../support/video.ts';

let t: TestApi;
let admin: Sesion;
let docente: Sesion;
let otro: Sesion;
let ids: { area: number; metodologia: number; unidad: number; oa: number; tipo: number };
const mp4 = await video();

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Rosa' });
  docente = await t.session({ nombre: 'Iván' });
  otro = await t.session({ nombre: 'Luis' });
  const u = await unidadDe(t, 'MA', '07');
  const [abp] = await t.db.select().from(metodologias).where(eq(metodologias.nombre, 'Aprendizaje Basado en Proyectos'));
  const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
  const [guia] = await t.db.select().from(tiposMaterial).where(eq(tiposMaterial.nombre, 'Guía'));
  ids = { area: u.id_area ?? 0, metodologia: abp?.id ?? 0, unidad: u.id, oa: oa?.id ?? 0, tipo: guia?.id ?? 0 };
});
afterAll(() => t.close());

const TUS = { 'tus-resumable': '1.0.0' };
/** Library English a person must never read. */
const ENGLISH = /Invalid|expected|received|Not Found|Bad Request|Malformed|Something went wrong|header required|exceeded|conflict/i;

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const metadatos = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

/** POST /api/subidas/ with a declared length and metadata. */
function crear(token: string | undefined, largo: number, meta: Record<string, string>, headers: Record<string, string> = {}) {
  return t.call('POST', '/api/subidas/', {
    ...(token ? { token } : {}),
    headers: { ...TUS, 'upload-length': String(largo), 'upload-metadata': metadatos(meta), ...headers },
  });
}

/** A new upload's URL path and id. */
async function nueva(token: string, largo: number, meta: Record<string, string>) {
  const res = await crear(token, largo, meta);
  expect(res.status, await res.clone().text()).toBe(201);
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(/^\/api\/subidas\/[0-9a-f]{32}$/);
  return { url: `${location}/`, id: location.split('/').at(-1) ?? '' };
}

const patch = (token: string, url: string, offset: number, body: BodyInit, headers: Record<string, string> = {}) =>
  t.call('PATCH', url, {
    token,
    body,
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers },
  });

/** HEAD answers carry no body, so its errors cannot show the JSON shape the contract gives them. */
const head = (token: string | undefined, url: string) =>
  t.call('HEAD', url, { ...(token ? { token } : {}), headers: TUS, unchecked: true });

/** An upload sent whole, ready to be used. */
async function terminada(token: string, datos: Buffer, meta: Record<string, string>) {
  const { url, id } = await nueva(token, datos.length, meta);
  const res = await patch(token, url, 0, new Uint8Array(datos));
  expect(res.status).toBe(204);
  return { url, id };
}

const camposCapsula = (extra: Record<string, unknown> = {}) => ({
  titulo: 'Fracciones con material concreto',
  descripcion: 'Una clase de **4° básico**',
  id_area: ids.area,
  id_metodologia: ids.metodologia,
  id_nivel: '04',
  ...extra,
});

const camposMaterial = () => ({
  id_area: String(ids.area),
  id_nivel: '07',
  id_unidad: String(ids.unidad),
  oas: String(ids.oa),
  titulo: 'Guía de números enteros',
  descripcion: 'Ejercicios con **la recta numérica**',
  tipo_material_docente: String(ids.tipo),
});

/** The upload store as the storage gives it (disk, or the bucket): whether it holds an upload's bytes, or anything of it. */
const almacen = () => t.storage.almacenSubidas(24 * 3600 * 1000);
const bytesGuardados = (id: string) => almacen().existe(id);
const conocida = async (id: string) => (await almacen().ids()).includes(id);

describe('the tus protocol', () => {
  it('sends half a video, asks HEAD for the offset, sends the rest and creates the capsule with id_subida', async () => {
    const meta = { filename: 'clase.mp4', filetype: 'video/mp4', destino: 'capsula' };
    const creada = await crear(admin.token, mp4.length, meta);
    expect(creada.status).toBe(201);
    expect(creada.headers.get('tus-resumable')).toBe('1.0.0');
    expect(Date.parse(creada.headers.get('upload-expires') ?? '') - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const url = `${creada.headers.get('location')}/`;
    const mitad = Math.floor(mp4.length / 2);

    const primera = await patch(admin.token, url, 0, new Uint8Array(mp4.subarray(0, mitad)));
    expect(primera.status).toBe(204);
    expect(primera.headers.get('upload-offset')).toBe(String(mitad));

    const estado = await head(admin.token, url);
    expect(estado.status).toBe(200);
    expect(estado.headers.get('upload-offset')).toBe(String(mitad));
    expect(estado.headers.get('upload-length')).toBe(String(mp4.length));
    expect(estado.headers.get('cache-control')).toBe('no-store');

    const resto = await patch(admin.token, url, mitad, new Uint8Array(mp4.subarray(mitad)));
    expect(resto.status).toBe(204);
    expect(resto.headers.get('upload-offset')).toBe(String(mp4.length));

    const id = url.split('/').at(-2);
    const res = await t.call('POST', '/api/capsulas/', { token: admin.token, json: camposCapsula({ id_subida: id }) });
    expect(res.status, await res.clone().text()).toBe(201);
    const capsula = await res.json();
    expect(capsula).toMatchObject({ estado: 'procesando', extension: 'mp4', tamano: mp4.length });
    expect(await t.jobs.drain()).toBeGreaterThanOrEqual(1);
    const lista = await (await t.call('GET', '/api/capsulas/', { token: docente.token })).json();
    expect(lista.capsula.map((c: { id: number }) => c.id)).toContain(capsula.id);

    // Used once: the upload is gone.
    expect((await head(admin.token, url)).status).toBe(404);
    const otraVez = await t.call('POST', '/api/capsulas/', { token: admin.token, json: camposCapsula({ id_subida: id }) });
    expect(otraVez.status).toBe(404);
    expect((await otraVez.json()).detail).toBe('No se encontró la subida');
    expect(await bytesGuardados(id ?? '')).toBe(false);
  });

  it('answers OPTIONS with the version, the extensions and the largest limit', async () => {
    const res = await t.call('OPTIONS', '/api/subidas/');
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,expiration');
    expect(res.headers.get('tus-max-size')).toBe(String(50 * 1024 * 1024));
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses at creation an upload over its form limit with 413, before any byte', async () => {
    const video = await crear(admin.token, 50 * 1024 * 1024 + 1, { filename: 'x.mp4', destino: 'capsula' });
    expect(video.status).toBe(413);
    expect(await video.json()).toEqual({ detail: 'El archivo supera el tamaño máximo permitido (50 MB)', statusCode: 413 });
    const material = await crear(docente.token, 5 * 1024 * 1024 + 1, { filename: 'x.pdf', destino: 'material' });
    expect(material.status).toBe(413);
    expect((await material.json()).detail).toBe('El archivo supera el tamaño máximo permitido (5 MB)');
    expect(await t.db.select().from(subidas).where(eq(subidas.id_usuario, docente.id))).toEqual([]);
  });

  it('never stores past the declared length', async () => {
    const { url } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    const declarado = await patch(docente.token, url, 0, new Uint8Array(20));
    expect(declarado.status).toBe(413);
    expect((await declarado.json()).detail).toBe('Los datos superan el tamaño declarado de la subida');
    expect((await head(docente.token, url)).headers.get('upload-offset')).toBe('0');
    // Without Content-Length (chunked), the stream is cut where it would pass the length.
    const trozos = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(8));
        controller.enqueue(new Uint8Array(8));
        controller.close();
      },
    });
    const chunked = await t.api.app.request(
      new Request(`http://localhost${url}`, {
        method: 'PATCH',
        body: trozos,
        duplex: 'half',
        headers: {
          ...TUS,
          authorization: `Bearer ${docente.token}`,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
      } as RequestInit),
    );
    expect(chunked.status).toBe(413);
    expect(Number((await head(docente.token, url)).headers.get('upload-offset'))).toBeLessThanOrEqual(10);
  });

  it('answers a PATCH at the wrong offset with 409', async () => {
    const { url } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    const res = await patch(docente.token, url, 3, new Uint8Array(2));
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toBe('Upload-Offset no coincide con lo recibido; consulte con HEAD desde dónde continuar');
  });

  it('cancels an upload with DELETE (termination): its bytes and its row go', async () => {
    const { url, id } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    await patch(docente.token, url, 0, new Uint8Array(4));
    expect(await bytesGuardados(id)).toBe(true);
    expect((await t.call('DELETE', url, { token: docente.token, headers: TUS })).status).toBe(204);
    expect((await head(docente.token, url)).status).toBe(404);
    expect(await bytesGuardados(id)).toBe(false);
    expect(await t.db.select().from(subidas).where(eq(subidas.id, id))).toEqual([]);
  });
});

describe('who may upload and use what', () => {
  it('needs a session: 401 without a token', async () => {
    expect((await crear(undefined, 10, { destino: 'material' })).status).toBe(401);
    const { url } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    expect((await head(undefined, url)).status).toBe(401);
    const sinToken = await t.call('PATCH', url, {
      body: new Uint8Array(2),
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expect(sinToken.status).toBe(401);
    // A cookie alone never authorizes a change.
    const conCookie = await t.call('PATCH', url, {
      body: new Uint8Array(2),
      headers: { ...TUS, cookie: `ed_access=${docente.token}`, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expect(conCookie.status).toBe(401);
  });

  it("hides another person's upload: HEAD, PATCH and DELETE answer 404, and it cannot be used", async () => {
    const { url, id } = await terminada(docente.token, pdf(), { filename: 'guia.pdf', destino: 'material' });
    for (const res of [
      await head(otro.token, url),
      await patch(otro.token, url, 0, new Uint8Array(1)),
      await t.call('DELETE', url, { token: otro.token, headers: TUS }),
    ]) {
      expect(res.status).toBe(404);
    }
    const usada = await t.call('POST', '/api/bdocente/', { token: otro.token, json: { ...camposMaterial(), id_subida: id } });
    expect(usada.status).toBe(404);
    expect(await usada.json()).toMatchObject({ detail: 'No se encontró la subida', errors: { id_subida: ['No se encontró la subida'] } });
    expect((await head(docente.token, url)).status).toBe(200);
  });

  it('keeps capsule, manual and category uploads to admins, as their forms', async () => {
    for (const destino of ['capsula', 'manual', 'categoria']) {
      const res = await crear(docente.token, 10, { filename: 'x', destino });
      expect(res.status, destino).toBe(403);
      expect((await res.json()).detail).toBe('No tienes permisos');
    }
    for (const destino of ['material', 'foto']) expect((await crear(docente.token, 10, { filename: 'x', destino })).status).toBe(201);
  });

  it('refuses an unknown destino with 400', async () => {
    for (const meta of [{ destino: 'video' }, { filename: 'x.pdf' }] as Record<string, string>[]) {
      const res = await crear(docente.token, 10, meta);
      expect(res.status).toBe(400);
      expect((await res.json()).detail).toBe('El destino de la subida no es válido');
    }
  });

  it('uses an upload only for its own form, only once finished', async () => {
    const { url, id } = await nueva(docente.token, pdf().length, { filename: 'guia.pdf', destino: 'material' });
    const pronto = await t.call('POST', '/api/bdocente/', { token: docente.token, json: { ...camposMaterial(), id_subida: id } });
    expect(pronto.status).toBe(400);
    expect((await pronto.json()).detail).toBe('La subida no ha terminado');
    await patch(docente.token, url, 0, new Uint8Array(pdf()));
    const foto = await t.call('POST', `/api/usuarios/${docente.id}/foto/`, { token: docente.token, json: { id_subida: id } });
    expect(foto.status).toBe(400);
    expect((await foto.json()).detail).toBe('La subida no corresponde a este formulario');
    const malo = await t.call('POST', '/api/bdocente/', { token: docente.token, json: { ...camposMaterial(), id_subida: 'x'.repeat(32) } });
    expect(malo.status).toBe(400);
    expect((await malo.json()).errors).toEqual({ id_subida: ['La subida no es válida'] });
  });

  it('keeps the upload when the form is refused, and refuses a file and an id together', async () => {
    const { id } = await terminada(docente.token, pdf(), { filename: 'guia.pdf', destino: 'material' });
    const sinTitulo = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData({ ...camposMaterial(), titulo: '', id_subida: id }),
    });
    expect(sinTitulo.status).toBe(400);
    expect((await sinTitulo.json()).detail).toBe('Debe ingresar un título');
    const ambos = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData({ ...camposMaterial(), id_subida: id }, { data: pdf(), name: 'guia.pdf', type: 'application/pdf' }),
    });
    expect(ambos.status).toBe(400);
    expect((await ambos.json()).detail).toBe('Envíe el archivo o id_subida, no ambos');
    // A multipart form with the id and no file: the upload is the file, checked from its bytes.
    const res = await t.call('POST', '/api/bdocente/', { token: docente.token, body: formData({ ...camposMaterial(), id_subida: id }) });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ extension: 'pdf', titulo: 'Guía de números enteros' });
    expect(await t.db.select().from(subidas).where(eq(subidas.id, id))).toEqual([]);
  });

  it('refuses at the last PATCH bytes of a type the form does not take, with its message, and deletes the upload', async () => {
    const datos = pdf();
    const { url, id } = await nueva(admin.token, datos.length, { filename: 'clase.mp4', filetype: 'video/mp4', destino: 'capsula' });
    const mitad = Math.floor(datos.length / 2);
    expect((await patch(admin.token, url, 0, new Uint8Array(datos.subarray(0, mitad)))).status).toBe(204);
    const ultima = await patch(admin.token, url, mitad, new Uint8Array(datos.subarray(mitad)));
    expect(ultima.status).toBe(400);
    expect(ultima.headers.get('tus-resumable')).toBe('1.0.0');
    expect(await ultima.json()).toEqual({
      detail: 'El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov',
      statusCode: 400,
    });

    // Nothing is left to continue or to use.
    expect((await head(admin.token, url)).status).toBe(404);
    expect(await t.db.select().from(subidas).where(eq(subidas.id, id))).toEqual([]);
    expect(await conocida(id)).toBe(false);
    const usada = await t.call('POST', '/api/capsulas/', { token: admin.token, json: camposCapsula({ id_subida: id }) });
    expect(usada.status).toBe(404);
    expect((await usada.json()).detail).toBe('No se encontró la subida');
  });

  it('refuses the same way a whole file sent with its creation (creation-with-upload)', async () => {
    const datos = Buffer.from('no soy una planilla');
    const creada = await t.call('POST', '/api/subidas/', {
      token: docente.token,
      body: new Uint8Array(datos),
      headers: {
        ...TUS,
        'upload-length': String(datos.length),
        'upload-metadata': metadatos({ filename: 'notas-rechazadas.xlsx', destino: 'material' }),
        'content-type': 'application/offset+octet-stream',
      },
    });
    expect(creada.status).toBe(400);
    expect((await creada.json()).detail).toBe('El material no es válido. Debe subir un archivo word, pdf, ppt o excel.');
    expect(creada.headers.get('location')).toBeNull();
    expect(await t.db.select().from(subidas).where(eq(subidas.nombre, 'notas-rechazadas.xlsx'))).toEqual([]);
  });

  it('checks the file again when the upload is used, as a multipart file', async () => {
    // It starts like a PDF (the type the bytes show), but no reader can open it.
    const { id } = await terminada(docente.token, Buffer.from('%PDF-1.4\nno soy un pdf'), { filename: 'guia.pdf', destino: 'material' });
    const res = await t.call('POST', '/api/bdocente/', { token: docente.token, json: { ...camposMaterial(), id_subida: id } });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe('El material no es válido. Debe subir un archivo word, pdf, ppt o excel.');
  });

  it('sets a profile photo and a category image from uploads', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#1e50d2' } })
      .png()
      .toBuffer();
    const foto = await terminada(docente.token, png, { filename: 'yo.png', filetype: 'image/png', destino: 'foto' });
    const res = await t.call('POST', `/api/usuarios/${docente.id}/foto/`, { token: docente.token, json: { id_subida: foto.id } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await bytesGuardados(foto.id)).toBe(false);

    const imagen = await terminada(admin.token, png, { filename: 'foro.png', filetype: 'image/png', destino: 'categoria' });
    const categoria = await t.call('POST', '/api/foro/categorias/', {
      token: admin.token,
      json: { nombre: 'Subidas reanudables', descripcion: 'Prueba', activa: true, id_subida: imagen.id },
    });
    expect(categoria.status, await categoria.clone().text()).toBe(201);
    const { id } = await categoria.json();
    const nueva = await terminada(admin.token, png, { filename: 'otra.png', destino: 'categoria' });
    const edicion = await t.call('PUT', `/api/foro/categorias/${id}/`, {
      token: admin.token,
      json: { nombre: 'Subidas reanudables', activa: true, id_subida: nueva.id },
    });
    expect(edicion.status).toBe(204);
  });
});

describe('expiry', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.db.delete(subidas);
  });

  it('answers 410 in Spanish for an unfinished upload past its expiry, as tus reads it', async () => {
    const { url, id } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    expect((await patch(docente.token, url, 0, new Uint8Array(4))).status).toBe(204);
    // tus compares the creation date in the upload's stored info with its clock: that info, read
    // from whichever store holds it, now says the upload began a day and an hour ago.
    const { datastore } = t.api.services.subidas.almacen;
    const leer = datastore.getUpload.bind(datastore);
    vi.spyOn(datastore, 'getUpload').mockImplementation(async (idSubida) => {
      const upload = await leer(idSubida);
      upload.creation_date = new Date(Date.parse(upload.creation_date ?? '') - 25 * 3600 * 1000).toISOString();
      return upload;
    });

    const estado = await head(docente.token, url);
    expect(estado.status).toBe(410);
    expect(estado.headers.get('tus-resumable')).toBe('1.0.0');
    const resto = await patch(docente.token, url, 4, new Uint8Array(6));
    expect(resto.status).toBe(410);
    expect(await resto.json()).toEqual({ detail: 'La subida expiró; comience una nueva', statusCode: 410 });
    // Nothing past the expiry was stored.
    vi.restoreAllMocks();
    expect((await head(docente.token, url)).headers.get('upload-offset')).toBe('4');
    expect(await bytesGuardados(id)).toBe(true);
  });

  it('removes unfinished uploads after 24 hours and finished unused ones 24 hours after finishing', async () => {
    const vieja = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    const terminadaVieja = await terminada(docente.token, pdf(), { filename: 'b.pdf', destino: 'material' });
    const reciente = await nueva(docente.token, 10, { filename: 'c.pdf', destino: 'material' });
    const ayer = new Date(Date.now() - 25 * 3600 * 1000);
    await t.db.update(subidas).set({ fecha_creacion: ayer }).where(eq(subidas.id, vieja.id));
    await t.db.update(subidas).set({ fecha_creacion: ayer, terminada: ayer }).where(eq(subidas.id, terminadaVieja.id));
    expect(await bytesGuardados(vieja.id)).toBe(true);

    // The recurring job, as the server queues it at start-up.
    await t.api.services.subidas.programar();
    expect(await t.jobs.drain()).toBeGreaterThanOrEqual(1);

    const quedan = (await t.db.select({ id: subidas.id }).from(subidas)).map((s) => s.id);
    expect(quedan).toContain(reciente.id);
    expect(quedan).not.toContain(vieja.id);
    expect(quedan).not.toContain(terminadaVieja.id);
    for (const id of [vieja.id, terminadaVieja.id]) {
      expect(await bytesGuardados(id)).toBe(false);
      expect(await conocida(id)).toBe(false);
    }
    expect((await head(docente.token, vieja.url)).status).toBe(404);
    expect((await head(docente.token, reciente.url)).status).toBe(200);
  });

  it('removes bytes that no row knows (the row went with its user)', async () => {
    const { id } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    await t.db.delete(subidas).where(eq(subidas.id, id));
    const otra = await nueva(docente.token, 10, { filename: 'b.pdf', destino: 'material' });
    expect(await t.api.services.subidas.limpiar()).toBeGreaterThanOrEqual(1);
    expect(await conocida(id)).toBe(false);
    expect(await conocida(otra.id)).toBe(true);
  });
});

describe('hostile requests never become a 500', () => {
  const expectSpanish = async (res: Response, status: number) => {
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.statusCode).toBe(status);
    expect(body.detail).not.toMatch(ENGLISH);
  };

  it('refuses malformed, truncated and hostile Upload-Metadata with 400', async () => {
    const valores = [
      '',
      'destino',
      'destino !!!!',
      `destino ${b64('material').slice(0, -1)}`,
      `destino ${b64('material')},destino ${b64('material')}`,
      `ñ ${b64('x')},destino ${b64('material')}`,
      `destino ${b64('material')},,`,
      `destino ${b64('material')},filename ${b64('a\u0000b.pdf')}`,
      `destino ${b64('material\u0000')}`,
      `destino ${b64('material')},filename ${b64('x'.repeat(5000))}`,
      `destino ${Buffer.from([0xff, 0xfe, 0xfd]).toString('base64')}`,
      `${'a,'.repeat(2000)}destino ${b64('material')}`,
      `destino ${b64('__proto__')}`,
    ];
    for (const valor of valores) {
      const res = await t.call('POST', '/api/subidas/', {
        token: docente.token,
        headers: { ...TUS, 'upload-length': '10', 'upload-metadata': valor },
      });
      expect(res.status, valor.slice(0, 60)).toBe(400);
      expect((await res.json()).detail).not.toMatch(ENGLISH);
    }
  });

  it('refuses bad lengths, deferred lengths and concatenation with 400', async () => {
    const meta = metadatos({ destino: 'material', filename: 'a.pdf' });
    const casos: Record<string, string>[] = [
      { 'upload-length': '-1' },
      { 'upload-length': '1e3' },
      { 'upload-length': '' },
      { 'upload-length': '99999999999999999999' },
      { 'upload-defer-length': '1' },
      { 'upload-length': '10', 'upload-concat': 'partial' },
      {},
    ];
    for (const headers of casos) {
      const res = await t.call('POST', '/api/subidas/', {
        token: docente.token,
        headers: { ...TUS, 'upload-metadata': meta, ...headers },
      });
      await expectSpanish(res, 400);
    }
    await expectSpanish(await crear(docente.token, 0, { destino: 'material' }), 400);
  });

  it('answers a wrong or missing Tus-Resumable with 412 and the version it speaks', async () => {
    const { url } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    for (const version of ['0.2.2', '', undefined]) {
      const headers: Record<string, string> = version === undefined ? {} : { 'tus-resumable': version };
      const creacion = await t.call('POST', '/api/subidas/', {
        token: docente.token,
        headers: { ...headers, 'upload-length': '10', 'upload-metadata': metadatos({ destino: 'material' }) },
      });
      expect(creacion.headers.get('tus-version')).toBe('1.0.0');
      await expectSpanish(creacion, 412);
      await expectSpanish(await t.call('PATCH', url, { token: docente.token, headers: { ...headers }, body: 'x' }), 412);
    }
  });

  it('refuses a PATCH with the wrong Content-Type or no offset', async () => {
    const { url } = await nueva(docente.token, 10, { filename: 'a.pdf', destino: 'material' });
    for (const tipo of ['application/json', 'application/offset+octet-stream; charset=utf-8', 'multipart/form-data; boundary=x']) {
      await expectSpanish(await patch(docente.token, url, 0, 'x', { 'content-type': tipo }), 415);
    }
    for (const offset of ['', '-1', 'abc', '1.5']) {
      await expectSpanish(await patch(docente.token, url, 0, 'x', { 'upload-offset': offset }), 400);
    }
    expect((await head(docente.token, url)).headers.get('upload-offset')).toBe('0');
  });

  it('answers unknown, malformed and other methods on upload paths in the error shape', async () => {
    expect((await head(docente.token, `/api/subidas/${'0'.repeat(32)}/`)).status).toBe(404);
    await expectSpanish(await patch(docente.token, `/api/subidas/${'0'.repeat(32)}/`, 0, 'x'), 404);
    await expectSpanish(await patch(docente.token, '/api/subidas/..%2F..%2Fsecretos/', 0, 'x'), 404);
    await expectSpanish(await t.call('DELETE', '/api/subidas/%00/', { token: docente.token, headers: TUS }), 404);
    const get = await t.call('GET', `/api/subidas/${'0'.repeat(32)}/`, { token: docente.token, unchecked: true });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('HEAD, PATCH, DELETE, OPTIONS');
  });
});

describe('the real tus-js-client over HTTP', () => {
  let server: http.Server;
  let base: string;
  const limits: HttpLimits = { headersMs: 5000, idleBodyMs: 2000, requestMs: 1000, maxBodyBytes: 64 * 1024 * 1024, lingerMs: 500 };

  /** The Hono app behind the server's own guard (timeouts of decision 0020), as main.server.ts serves it. */
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      void guard(req, res, limits, async () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
        const conCuerpo = req.method !== 'GET' && req.method !== 'HEAD';
        const request = new Request(`${base}${req.url}`, {
          method: req.method,
          headers,
          ...(conCuerpo ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
        } as RequestInit);
        const response = await t.api.app.fetch(request, { clientAddress: '127.0.0.1', trustProxy: 0 });
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
        res.end();
      });
    });
    configureServer(server, limits);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function subir(datos: Buffer, opciones: { metadata: Record<string, string>; token: string; uploadUrl?: string; chunkSize?: number }) {
    return new Promise<string>((resolve, reject) => {
      const upload = new Upload(datos, {
        endpoint: `${base}/api/subidas/`,
        ...(opciones.uploadUrl ? { uploadUrl: opciones.uploadUrl } : {}),
        headers: { authorization: `Bearer ${opciones.token}` },
        metadata: opciones.metadata,
        chunkSize: opciones.chunkSize ?? 64 * 1024,
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url ?? ''),
      });
      upload.start();
    });
  }

  it('uploads a PDF in chunks and the library takes it by id_subida', async () => {
    const archivo = pdf(3, 200_000);
    const url = await subir(archivo, {
      token: docente.token,
      metadata: { filename: 'guia.pdf', filetype: 'application/pdf', destino: 'material' },
    });
    expect(url).toMatch(/\/api\/subidas\/[0-9a-f]{32}$/);
    const id = url.split('/').at(-1);
    const res = await t.call('POST', '/api/bdocente/', { token: docente.token, json: { ...camposMaterial(), id_subida: id } });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ extension: 'pdf', tamano: archivo.length, paginas: 3 });
  });

  it('resumes an upload that stopped halfway: it asks for the offset and sends only the rest', async () => {
    const archivo = pdf(2, 300_000);
    const { url } = await nueva(docente.token, archivo.length, { filename: 'guia.pdf', destino: 'material' });
    const mitad = 150_000;
    expect((await patch(docente.token, url, 0, new Uint8Array(archivo.subarray(0, mitad)))).status).toBe(204);
    const recibidos: number[] = [];
    const upload = await new Promise<string>((resolve, reject) => {
      const u = new Upload(archivo, {
        endpoint: `${base}/api/subidas/`,
        uploadUrl: `${base}${url.slice(0, -1)}`,
        headers: { authorization: `Bearer ${docente.token}` },
        chunkSize: 100_000,
        retryDelays: [],
        onChunkComplete: (_chunk, aceptados) => recibidos.push(aceptados),
        onError: reject,
        onSuccess: () => resolve(u.url ?? ''),
      });
      u.start();
    });
    expect(upload).toBe(`${base}${url.slice(0, -1)}`);
    expect(recibidos[0]).toBe(mitad + 100_000);
    expect(recibidos.at(-1)).toBe(archivo.length);
    expect((await head(docente.token, url)).headers.get('upload-offset')).toBe(String(archivo.length));
  });

  it('keeps what arrived before the connection dropped, and continues from there', async () => {
    const archivo = pdf(1, 100_000);
    const { url } = await nueva(docente.token, archivo.length, { filename: 'guia.pdf', destino: 'material' });
    const cortado = 40_000;
    await new Promise<void>((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      const req = http.request(`http://127.0.0.1:${port}${url}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          authorization: `Bearer ${docente.token}`,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(archivo.length),
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => reject(new Error('answered before the body was complete')));
      // Part of the body, then the connection drops (a train enters a tunnel).
      req.write(archivo.subarray(0, cortado), () => setTimeout(() => req.destroy(), 200));
    });
    // The server notices the drop and stores what came; HEAD says where to continue.
    let offset = 0;
    await expect
      .poll(async () => {
        const res = await head(docente.token, url);
        offset = Number(res.headers.get('upload-offset'));
        return res.status === 200 && offset === cortado;
      })
      .toBe(true);
    const resto = await patch(docente.token, url, offset, new Uint8Array(archivo.subarray(offset)));
    expect(resto.status).toBe(204);
    expect(resto.headers.get('upload-offset')).toBe(String(archivo.length));
  });

  it('lets a chunk take longer than the whole-request timeout of short requests (only the idle one applies)', async () => {
    const { url } = await nueva(docente.token, 12, { filename: 'a.pdf', destino: 'material' });
    // One byte every 250 ms for 3 s: past requestMs (1 s), never idle for idleBodyMs (2 s). The
    // bytes begin a PDF, the type a material may be: the finished upload's type is checked.
    const inicio = pdf().subarray(0, 12);
    let enviados = 0;
    const goteo = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((r) => setTimeout(r, 250));
        controller.enqueue(new Uint8Array(inicio.subarray(enviados, enviados + 1)));
        if (++enviados === 12) controller.close();
      },
    });
    const res = await fetch(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        authorization: `Bearer ${docente.token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: goteo,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(204);
    expect(res.headers.get('upload-offset')).toBe('12');
  });
});

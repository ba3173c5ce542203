/**
 * The media tools (issue 28, decision 0049). A machine without poppler still takes a PDF, with
 * PDF.js, which `npm ci` installs; a machine where a tool does not run (missing or broken)
 * answers 503 with the server's fault in Spanish, never the 'no es válido' of a bad file, stores
 * nothing, and stays ready. (tests/e2e/herramientas.test.ts starts the built server without them.)
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, capsulas, manuales, materiales, oas } from '../../src/lib/server/db/schema.server.ts';
import { HERRAMIENTA_NO_DISPONIBLE, resolverHerramientas, SCRIPT_PDFJS } from '../../src/lib/server/media/herramientas.server.ts';
import { contarPaginas, renderPrimeraPagina } from '../../src/lib/server/media/pdf.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { catalogos, enviarCapsula, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { video } from '../support/video.ts';

const VIDEO_INVALIDO = 'El video no es válido. Debe subir un archivo .mp4, .avi, .mpeg o .mov';

const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-herramientas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stored file's bytes. */
async function leer(t: TestApi, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every key the storage holds (the temporary folder is not a key). */
async function claves(t: TestApi) {
  const out: string[] = [];
  for await (const { key } of t.storage.list('')) out.push(key);
  return out.sort();
}

async function subirManual(t: TestApi, token: string) {
  const [ma] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
  return t.call('POST', '/api/manuales/', {
    token,
    body: formData(
      { titulo: 'Didáctica de la Matemática', descripcion: 'Estrategias', id_area: String(ma?.id) },
      { data: pdf(3), name: 'manual.pdf', type: 'application/pdf' },
    ),
  });
}

async function subirMaterial(t: TestApi, token: string) {
  const unidad = await unidadDe(t, 'MA', '07');
  const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, unidad.id));
  const cat = await catalogos(t);
  return t.call('POST', '/api/bdocente/', {
    token,
    body: formData(
      {
        id_area: String(unidad.id_area),
        id_nivel: '07',
        id_unidad: String(unidad.id),
        oas: [String(oa?.id)],
        titulo: 'Guía de números enteros',
        descripcion: 'Ejercicios',
        tipo_material_docente: String(cat.tipo),
      },
      { data: pdf(2), name: 'guia.pdf', type: 'application/pdf' },
    ),
  });
}

describe('a machine without poppler: PDF.js, which npm ci installed', () => {
  let t: TestApi;
  let admin: string;
  const herramientas = resolverHerramientas({ PATH: '' });

  beforeAll(async () => {
    t = await createTestApi({ herramientas });
    admin = (await t.session({ admin: true })).token;
  });
  afterAll(() => t.close());

  it('finds PDF.js, and ffmpeg nowhere', () => {
    expect(herramientas.pdf).toMatchObject({ tipo: 'pdfjs', origen: 'incluido', ruta: process.execPath, script: SCRIPT_PDFJS });
    expect(herramientas.ffmpeg).toEqual({ ruta: 'ffmpeg', origen: 'sistema' });
    expect(herramientas.ffprobe).toEqual({ ruta: 'ffprobe', origen: 'sistema' });
  });

  it('takes a manual and a library PDF, counts their pages and draws their first page', async () => {
    const manual = await subirManual(t, admin);
    expect(manual.status, await manual.clone().text()).toBe(201);
    const { id } = await manual.json();
    await t.jobs.drain();
    const [m] = await t.db.select().from(manuales).where(eq(manuales.id, id));
    expect(m?.paginas).toBe(3);
    const jpg = await leer(t, `manuales/${id}/miniatura.jpg`);
    expect(jpg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const material = await subirMaterial(t, admin);
    expect(material.status, await material.clone().text()).toBe(201);
    const [mat] = await t.db
      .select()
      .from(materiales)
      .where(eq(materiales.id, (await material.json()).id));
    expect(mat?.paginas).toBe(2);
  });

  it('refuses what is not a PDF, in a process of its own, as poppler does; draws a real one at the width asked', async () => {
    const falso = path.join(dir, 'falso.pdf');
    writeFileSync(falso, '%PDF-1.4\nesto no es un PDF');
    expect(await contarPaginas(falso, herramientas.pdf)).toBeNull();
    expect(await renderPrimeraPagina(falso, path.join(dir, 'falso.png'), 320, herramientas.pdf)).toBe(false);
    const bueno = path.join(dir, 'bueno.pdf');
    writeFileSync(bueno, pdf(1));
    expect(await renderPrimeraPagina(bueno, path.join(dir, 'bueno.png'), 320, herramientas.pdf)).toBe(true);
    // A PNG's width is the big-endian word at byte 16.
    expect(readFileSync(path.join(dir, 'bueno.png')).readUInt32BE(16)).toBe(320);
    // A bad upload is still the teacher's: 400, not 503.
    const res = await t.call('POST', '/api/manuales/', {
      token: admin,
      body: formData(
        { titulo: 'Roto', descripcion: 'Roto', id_area: String((await catalogos(t)).area) },
        { data: Buffer.from('%PDF-1.4\nesto no es un PDF'), name: 'roto.pdf', type: 'application/pdf' },
      ),
    });
    expect(res.status).toBe(400);
  });
});

describe('a machine where no tool runs', () => {
  let t: TestApi;
  let admin: string;

  beforeAll(async () => {
    // Configured where nothing is: the state of a machine whose tools were removed or never came.
    t = await createTestApi({
      herramientas: resolverHerramientas({ FFMPEG_PATH: '/sin/ffmpeg', FFPROBE_PATH: '/sin/ffprobe', PDFTOPPM_PATH: '/sin/pdftoppm' }),
    });
    admin = (await t.session({ admin: true })).token;
  });
  afterAll(() => t.close());

  it("answers 503 with the server's fault, stores nothing, and stays ready; the detail names the tools", async () => {
    const antes = await claves(t);
    const capsula = await enviarCapsula(t, admin);
    expect(capsula.status).toBe(503);
    expect(capsula.headers.get('retry-after')).toBe('300');
    expect((await capsula.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.video);

    const manual = await subirManual(t, admin);
    expect(manual.status).toBe(503);
    expect((await manual.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.pdf);
    const material = await subirMaterial(t, admin);
    expect(material.status).toBe(503);
    expect((await material.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.pdf);

    expect(await t.db.select().from(capsulas)).toEqual([]);
    expect(await t.db.select().from(manuales)).toEqual([]);
    expect(await t.db.select().from(materiales)).toEqual([]);
    expect(await claves(t)).toEqual(antes);

    // A resumable upload is refused before its first byte, not after gigabytes; a material (any
    // type) may still start.
    const crear = (destino: string, nombre: string) =>
      t.call('POST', '/api/subidas/', {
        token: admin,
        headers: {
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': `filename ${Buffer.from(nombre).toString('base64')},destino ${Buffer.from(destino).toString('base64')}`,
        },
      });
    const tusVideo = await crear('capsula', 'clase.mp4');
    expect(tusVideo.status).toBe(503);
    expect((await tusVideo.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.video);
    const tusManual = await crear('manual', 'manual.pdf');
    expect(tusManual.status).toBe(503);
    expect((await tusManual.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.pdf);
    expect((await crear('material', 'guia.docx')).status).toBe(201);

    expect((await t.call('GET', '/healthz')).status).toBe(200);
    const detalle = await t.call('GET', '/healthz/detalle', { token: admin });
    expect(detalle.status).toBe(503);
    const cuerpo = await detalle.json();
    expect(cuerpo.herramientas.map((h: { nombre: string; disponible: boolean }) => [h.nombre, h.disponible])).toEqual([
      ['ffmpeg', false],
      ['ffprobe', false],
      ['pdf', false],
    ]);
    expect(cuerpo.razones).toEqual([
      'La herramienta ffmpeg no funciona (/sin/ffmpeg): /sin/ffmpeg not found.',
      'La herramienta ffprobe no funciona (/sin/ffprobe): /sin/ffprobe not found.',
      'La herramienta pdf no funciona (/sin/pdftoppm): /sin/pdfinfo not found.',
    ]);
  });
});

describe('a broken tool', () => {
  let t: TestApi;
  let admin: string;
  const rotas = path.join(dir, 'rotas');

  beforeAll(async () => {
    // An ffprobe that starts and fails at everything, as a broken install or a missing library does.
    mkdirSync(rotas, { recursive: true });
    for (const nombre of ['ffprobe', 'pdfinfo', 'pdftoppm']) {
      writeFileSync(path.join(rotas, nombre), '#!/bin/sh\necho "error while loading shared libraries" >&2\nexit 127\n');
      chmodSync(path.join(rotas, nombre), 0o755);
    }
    t = await createTestApi({
      herramientas: resolverHerramientas({ FFPROBE_PATH: path.join(rotas, 'ffprobe'), PDFTOPPM_PATH: path.join(rotas, 'pdftoppm') }),
    });
    admin = (await t.session({ admin: true })).token;
  });
  afterAll(() => t.close());

  it('is the server’s fault (503) for a good file, while a bad file with working tools is still the file’s (400)', async () => {
    const res = await enviarCapsula(t, admin);
    expect(res.status).toBe(503);
    expect((await res.json()).detail).toBe(HERRAMIENTA_NO_DISPONIBLE.video);
    expect((await subirManual(t, admin)).status).toBe(503);
    expect(await t.db.select().from(capsulas)).toEqual([]);

    // The same machine's ffmpeg and poppler, working: a file that is not a video is the teacher's.
    const sano = await createTestApi();
    try {
      const otroAdmin = (await sano.session({ admin: true })).token;
      const malo = await enviarCapsula(sano, otroAdmin, {
        data: Buffer.concat([(await video()).subarray(0, 64), Buffer.alloc(4096)]),
        name: 'clase.mp4',
        type: 'video/mp4',
      });
      expect(malo.status).toBe(400);
      expect((await malo.json()).detail).toBe(VIDEO_INVALIDO);
    } finally {
      await sano.close();
    }
  });
});

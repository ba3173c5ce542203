import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionMiniatura } from '../../src/lib/format/miniaturas.ts';
import { areas } from '../../src/lib/server/db/schema.server.ts';
import { claveVariante } from '../../src/lib/server/media/miniaturas.server.ts';
import { regenerarMiniaturas } from '../../src/lib/server/media/regenerar.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Archivo, formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { runCli } from '../support/server.ts';

let t: TestApi;
let admin: { id: number; token: string };
let docente: { id: number; token: string };
let otraAdmin: { token: string };
let matematica: number;
let lenguaje: { id: number; nombre: string };

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Marta' });
  otraAdmin = await t.session({ admin: true });
  docente = await t.session({ nombre: 'Pablo' });
  const [ma] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
  const [le] = await t.db.select().from(areas).where(eq(areas.codigo, 'LE'));
  matematica = ma?.id ?? 0;
  lenguaje = { id: le?.id ?? 0, nombre: le?.nombre ?? '' };
});
afterAll(() => t.close());

const formulario = (campos: Record<string, string>, archivo?: Archivo) =>
  formData(campos, archivo && { type: 'application/pdf', ...archivo });

const subir = (token: string, campos: Record<string, string>, archivo?: Archivo) =>
  t.call('POST', '/api/manuales/', { token, body: formulario(campos, archivo) });

const valido = () => ({
  titulo: 'Didáctica de la Matemática',
  descripcion: 'Estrategias para **fracciones**',
  id_area: String(matematica),
});

async function crear(campos = valido(), paginas = 2) {
  const res = await subir(admin.token, campos, { data: pdf(paginas), name: 'manual.pdf' });
  expect(res.status).toBe(201);
  return res.json();
}

describe('uploading (admins only)', () => {
  it('refuses teachers with 403, whatever the UI shows', async () => {
    const res = await subir(docente.token, valido(), { data: pdf(), name: 'manual.pdf' });
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toBe('No tienes permisos');
  });

  it('stores a real PDF with its size, page count, author and thumbnail', async () => {
    const manual = await crear(valido(), 3);
    expect(manual).toMatchObject({
      titulo: 'Didáctica de la Matemática',
      autor: 'Marta Pérez',
      extension: 'pdf',
      paginas: 3,
      n_visitas: 0,
      comentarios: 0,
      likes: [],
      id_area: { id: matematica, codigo: 'MA' },
      id_usuario: { id: admin.id, primer_nombre: 'Marta' },
      archivo: `/api/manuales/${manual.id}/descargar/`,
    });
    expect(manual.tamano).toBe(pdf(3).length);
    const thumb = await t.call('GET', `/miniaturas/manuales/${manual.id}/`, { headers: { cookie: `ed_access=${docente.token}` } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect([...new Uint8Array(await thumb.arrayBuffer()).slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('answers every validation message of SPEC 5', async () => {
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        { titulo: '', descripcion: '', id_area: '-1' },
        { titulo: ['Debe ingresar un título'], descripcion: ['Debe ingresar una descripción'], id_area: ['Debe ingresar una area'] },
      ],
      [{ ...valido(), titulo: 'x'.repeat(151) }, { titulo: ['Puede ingresar hasta 150 caracteres'] }],
      [{ ...valido(), descripcion: 'x'.repeat(1001) }, { descripcion: ['Puede ingresar hasta 1000 caracteres'] }],
    ];
    for (const [campos, errors] of cases) {
      const res = await subir(admin.token, campos, { data: pdf(), name: 'm.pdf' });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual(errors);
    }
    const sinArchivo = await subir(admin.token, valido());
    expect((await sinArchivo.json()).errors).toEqual({ archivo: ['Debe subir un manual'] });
  });

  it('checks the bytes, not the name: a renamed text or a broken PDF is refused and nothing stays', async () => {
    for (const data of ['no soy un pdf', '%PDF-1.4\nroto']) {
      const res = await subir(admin.token, valido(), { data, name: 'manual.pdf' });
      expect(res.status).toBe(400);
      expect((await res.json()).errors).toEqual({ archivo: ['El manual no es válido. Debe subir un archivo .pdf'] });
    }
  });

  it('refuses files over the size limit with 413', async () => {
    const res = await subir(admin.token, valido(), { data: pdf(1, 6 * 1024 * 1024), name: 'grande.pdf' });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toBe('El archivo supera el tamaño máximo permitido (5 MB)');
  });
});

describe('listing and searching', () => {
  it('searches the title text ignoring accents, filters by area, orders and paginates', async () => {
    const a = await crear({ titulo: 'Lectura en voz alta', descripcion: 'Comprensión lectora', id_area: String(lenguaje.id) });
    const b = await crear({ titulo: 'Evaluación formativa en matemáticas', descripcion: 'Rúbricas', id_area: String(matematica) });
    await t.call('GET', `/api/manuales/${a.id}/`, { token: docente.token });

    const busqueda = await (await t.call('GET', '/api/manuales/?titulo=evaluacion%20matematica', { token: docente.token })).json();
    expect(busqueda.manuales.map((m: { id: number }) => m.id)).toEqual([b.id]);
    const porArea = await (await t.call('GET', `/api/manuales/?area=${lenguaje.id}`, { token: docente.token })).json();
    expect(porArea.manuales.map((m: { id: number }) => m.id)).toEqual([a.id]);
    const todos = await (await t.call('GET', '/api/manuales/?area=-1&tamano_pagina=5', { token: docente.token })).json();
    expect(todos.num_results).toBeGreaterThanOrEqual(3);
    expect(todos.manuales[0].id).toBe(b.id);
    const visitas = await (await t.call('GET', '/api/manuales/?order=n_visitas', { token: docente.token })).json();
    expect(visitas.manuales[0].id).toBe(a.id);
    const paginado = await (await t.call('GET', '/api/manuales/?tamano_pagina=5&pagina=99', { token: docente.token })).json();
    expect(paginado).toMatchObject({ manuales: [], num_pages: Math.ceil(todos.num_results / 5) });
    // A search longer than 200 characters is cut there and searched, not dropped (which would list everything).
    const largas = ['evaluacion '.repeat(30), `evaluacion ${'x'.repeat(300)}`];
    const [repetida, sinCoincidencia] = await Promise.all(
      largas.map(async (q) => (await t.call('GET', `/api/manuales/?titulo=${encodeURIComponent(q)}`, { token: docente.token })).json()),
    );
    expect(repetida.manuales.map((m: { id: number }) => m.id)).toEqual([b.id]);
    expect(sinCoincidencia).toMatchObject({ manuales: [], num_results: 0 });
    // A mistyped page size or order falls back to the defaults instead of failing.
    expect((await t.call('GET', '/api/manuales/?tamano_pagina=7&order=x&pagina=-2', { token: docente.token })).status).toBe(200);
  });
});

describe('one manual', () => {
  it('counts a view once per person per visit', async () => {
    const m = await crear();
    for (let i = 0; i < 3; i++) await t.call('GET', `/api/manuales/${m.id}/`, { token: docente.token });
    await t.call('GET', `/api/manuales/${m.id}/`, { token: admin.token });
    expect((await (await t.call('GET', `/api/manuales/${m.id}/`, { token: admin.token })).json()).n_visitas).toBe(2);
    const antes = t.clock.now;
    t.clock.now = new Date(antes.getTime() + 31 * 60_000);
    const luego = await t.login((await t.db.query.usuarios.findFirst({ where: (u, { eq }) => eq(u.id, docente.id) }))?.email ?? '');
    expect((await (await t.call('GET', `/api/manuales/${m.id}/`, { token: luego.access })).json()).n_visitas).toBe(3);
    t.clock.now = antes;
  });

  it('answers 404 "No se encontró manual" for a missing id', async () => {
    const res = await t.call('GET', '/api/manuales/999999/', { token: docente.token });
    expect(res.status).toBe(404);
    expect((await res.json()).detail).toBe('No se encontró manual');
  });

  it('downloads as an attachment named after the title, reads inline, and resumes with Range', async () => {
    const m = await crear({ ...valido(), titulo: 'Guía: Ñandú y números' });
    const file = await t.call('GET', `/api/manuales/${m.id}/descargar/`, { token: docente.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Guia: Nandu y numeros.pdf"; filename*=UTF-8''Gu%C3%ADa%3A%20%C3%91and%C3%BA%20y%20n%C3%BAmeros.pdf`,
    );
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf(2))).toBe(true);
    const leer = await t.call('GET', `/api/manuales/${m.id}/leer/`, { token: docente.token });
    expect(leer.headers.get('content-type')).toBe('application/pdf');
    expect(leer.headers.get('content-disposition')).toMatch(/^inline; /);
    const part = await t.call('GET', `/api/manuales/${m.id}/leer/`, { token: docente.token, headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('%PDF-1.4');
  });
});

describe('editing and deleting (the owner, or an admin moderating)', () => {
  it('edits with the area name as SPEC sends it; others get 403', async () => {
    const m = await crear();
    const form = { id: String(m.id), titulo: 'Nuevo título', descripcion: 'Nueva descripción', id_area: lenguaje.nombre };
    expect((await t.call('PUT', '/api/manuales/', { token: docente.token, body: formulario(form) })).status).toBe(403);
    const ok = await t.call('PUT', '/api/manuales/', { token: admin.token, body: formulario(form) });
    expect(ok.status).toBe(204);
    const after = await (await t.call('GET', `/api/manuales/${m.id}/`, { token: admin.token })).json();
    expect(after).toMatchObject({ titulo: 'Nuevo título', descripcion: 'Nueva descripción', id_area: { id: lenguaje.id } });
    const bad = await t.call('PUT', '/api/manuales/', {
      token: admin.token,
      body: formulario({ ...form, titulo: '', id_area: 'Seleccionar' }),
    });
    expect((await bad.json()).errors).toEqual({ titulo: ['Debe ingresar un título'], id_area: ['Debe ingresar una area'] });
    expect((await t.call('PUT', '/api/manuales/', { token: admin.token, body: formulario({ ...form, id: '999999' }) })).status).toBe(404);
  });

  it('deletes with comments, likes and files; teachers get 403', async () => {
    const m = await crear();
    await t.call('POST', '/api/manuales/comentarios/', {
      token: docente.token,
      json: { id_usuario: docente.id, contenido: 'Gracias', id_recurso: m.id, tipo_recurso: 'id_manual' },
    });
    await t.call('POST', '/api/manuales/like/', { token: docente.token, json: { id_usuario: docente.id, id_manual: m.id, add: true } });
    expect((await t.call('DELETE', `/api/manuales/${m.id}/`, { token: docente.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/manuales/${m.id}/`, { token: otraAdmin.token })).status).toBe(204);
    expect((await t.call('GET', `/api/manuales/${m.id}/`, { token: admin.token })).status).toBe(404);
    expect(await t.storage.size(`manuales/${m.id}/manual.pdf`)).toBeNull();
    expect(await t.storage.size(`manuales/${m.id}/miniatura.jpg`)).toBeNull();
  });
});

describe('comments and likes', () => {
  it('comments, replies and lists them; the comment count follows', async () => {
    const m = await crear();
    const base = { id_recurso: m.id, tipo_recurso: 'id_manual' };
    const vacio = await t.call('POST', '/api/manuales/comentarios/', {
      token: docente.token,
      json: { ...base, id_usuario: docente.id, contenido: '  ' },
    });
    expect((await vacio.json()).errors).toEqual({ contenido: ['Debe ingresar un comentario'] });
    const c1 = await (
      await t.call('POST', '/api/manuales/comentarios/', {
        token: docente.token,
        json: { ...base, id_usuario: docente.id, contenido: '¿Sirve para 1° medio?' },
      })
    ).json();
    const r1 = await t.call('POST', '/api/manuales/comentarios/', {
      token: admin.token,
      json: { ...base, id_usuario: admin.id, contenido: 'Sí', id_respuesta_comentario: c1.id },
    });
    expect(r1.status).toBe(201);
    expect(await r1.json()).toMatchObject({ contenido: 'Sí', id_respuesta_comentario: c1.id, tipo_recurso: 'id_manual', id_recurso: m.id });
    const lista = await (await t.call('GET', `/api/manuales/comentarios/${m.id}/`, { token: docente.token })).json();
    expect(lista.comentarios_base).toHaveLength(1);
    expect(lista.comentarios_hijos).toHaveLength(1);
    expect((await (await t.call('GET', `/api/manuales/${m.id}/`, { token: docente.token })).json()).comentarios).toBe(2);
    const ajeno = await t.call('POST', '/api/manuales/comentarios/', {
      token: docente.token,
      json: { ...base, id_usuario: admin.id, contenido: 'x' },
    });
    expect(ajeno.status).toBe(403);
  });

  it("likes and unlikes in the signed-in user's name only", async () => {
    const m = await crear();
    const like = await t.call('POST', '/api/manuales/like/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_manual: m.id, add: true },
    });
    expect(like.status).toBe(200);
    expect((await like.json()).likes).toEqual([{ id: docente.id }]);
    const unlike = await t.call('POST', '/api/manuales/like/', {
      token: docente.token,
      json: { id_usuario: docente.id, id_manual: m.id, add: false },
    });
    expect((await unlike.json()).likes).toEqual([]);
    expect(
      (await t.call('POST', '/api/manuales/like/', { token: docente.token, json: { id_usuario: admin.id, id_manual: m.id, add: true } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.call('POST', '/api/manuales/like/', {
          token: docente.token,
          json: { id_usuario: docente.id, id_manual: 999999, add: true },
        })
      ).status,
    ).toBe(404);
  });
});

describe('card thumbnails: WebP variants in the widths the cards use (issue 15)', () => {
  // DATA_DIR/files: the disk storage's root, and where either storage keeps its temporary folder (.tmp).
  const raiz = () => path.dirname(t.storage.tempDir);
  const cookie = () => ({ headers: { cookie: `ed_access=${docente.token}` } });
  const variante = (id: number, ancho: string, v = versionMiniatura(new Date().toISOString())) =>
    t.call('GET', `/miniaturas/manuales/${id}/?ancho=${ancho}&v=${v}`, cookie());

  it('makes 320x180 and 640x360 WebP at upload, kept a year at their versioned URL', async () => {
    const m = await crear();
    for (const [ancho, alto] of [
      [320, 180],
      [640, 360],
    ] as const) {
      const res = await variante(m.id, String(ancho));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: ancho, height: alto });
    }
    // Without the current version the variant is cached for a day only.
    const sinVersion = await t.call('GET', `/miniaturas/manuales/${m.id}/?ancho=320`, cookie());
    expect(sinVersion.headers.get('cache-control')).toBe('private, max-age=86400');
    // The old URL (pages cached before the variants) still answers the JPEG.
    const viejo = await t.call('GET', `/miniaturas/manuales/${m.id}/`, cookie());
    expect(viejo.headers.get('content-type')).toBe('image/jpeg');
  });

  it('answers 404 for a width no variant has and 400 for a hostile id, never 500', async () => {
    const m = await crear();
    for (const ancho of ['100', '0', '320.webp', '..%2F..%2Fsecretos%2Fjwt', '%00', '', '1e3', '320&ancho=640', '9'.repeat(400)]) {
      const res = await variante(m.id, ancho);
      expect(res.status, ancho).toBe(ancho === '%00' ? 400 : 404);
    }
    expect((await variante(m.id, '100')).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await t.call('GET', '/miniaturas/manuales/..%2F1/?ancho=320', cookie())).status).toBe(400);
    expect((await t.call('GET', '/miniaturas/manuales/999999/?ancho=320', cookie())).status).toBe(404);
    expect((await t.call('GET', `/miniaturas/manuales/${m.id}/?ancho=320`)).status).toBe(401);
  });

  it('stands the JPEG in (briefly cached) for content stored before the variants, until npm run miniaturas makes them', async () => {
    const m = await crear();
    const claves = ([320, 640] as const).map((ancho) => claveVariante(`manuales/${m.id}/miniatura.jpg`, ancho));
    for (const clave of claves) await t.storage.remove(clave);
    const antes = await variante(m.id, '320');
    expect(antes.headers.get('content-type')).toBe('image/jpeg');
    expect(antes.headers.get('cache-control')).toBe('private, max-age=300');
    // A version before issue 19 wrote in place, and one that died left a half file behind.
    const resto = `${claveVariante(`manuales/${m.id}/miniatura.jpg`, 320)}.intento-0f0f`;
    await t.storage.write(resto, Buffer.from('a medias'));
    // A variant of an earlier pipeline version is never served again.
    const vieja = `manuales/${m.id}/miniatura-320-v0.webp`;
    await t.storage.write(vieja, Buffer.from('vieja'));
    // Pictures are made in work folders now: a dead run's old one goes, one made now may be a running upload's and stays.
    mkdirSync(t.storage.tempDir, { recursive: true });
    const muerta = mkdtempSync(path.join(t.storage.tempDir, 'miniaturas-'));
    writeFileSync(path.join(muerta, 'miniatura.jpg.intento-0f0f.png'), 'a medias');
    utimesSync(path.join(muerta, 'miniatura.jpg.intento-0f0f.png'), new Date(0), new Date(0));
    utimesSync(muerta, new Date(0), new Date(0));
    const enCurso = mkdtempSync(path.join(t.storage.tempDir, 'miniaturas-'));
    writeFileSync(path.join(enCurso, 'miniatura.jpg.intento-1a1a.png'), 'dibujándose');

    const informes = await regenerarMiniaturas(t.storage);
    expect(informes.find((i) => i.contenido === `manuales/${m.id}`)).toEqual({ contenido: `manuales/${m.id}`, resultado: 'hecha' });
    expect(await t.storage.size(resto)).toBeNull();
    expect(await t.storage.size(vieja)).toBeNull();
    expect(existsSync(muerta)).toBe(false);
    expect(existsSync(enCurso)).toBe(true);
    rmSync(enCurso, { recursive: true });
    expect((await variante(m.id, '320')).headers.get('content-type')).toBe('image/webp');
    // Nothing of the run is left in the temporary folder, and nothing is left to do.
    expect(readdirSync(t.storage.tempDir).filter((n) => n.startsWith('miniaturas-'))).toEqual([]);
    const otraVez = await regenerarMiniaturas(t.storage);
    expect(otraVez.filter((i) => i.resultado !== 'ya estaba')).toEqual([]);
  });

  it('npm run miniaturas reports what it made on the storage STORAGE_URL names, and is idempotent', async () => {
    const m = await crear();
    await t.storage.remove(claveVariante(`manuales/${m.id}/miniatura.jpg`, 640));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-miniaturas-cli-'));
    symlinkSync(raiz(), path.join(dataDir, 'files'));
    try {
      const primera = await cli(dataDir);
      expect(primera.code, primera.stderr).toBe(0);
      expect(primera.stdout).toContain(`manuales/${m.id}: hecha`);
      expect(primera.stdout).toMatch(/Hechas: 1; ya estaban: \d+; sin miniatura: 0; fallidas: 0\./);
      expect(await t.storage.size(claveVariante(`manuales/${m.id}/miniatura.jpg`, 640))).toBeGreaterThan(0);
      const segunda = await cli(dataDir);
      expect(segunda.stdout).toMatch(/Hechas: 0; ya estaban: \d+; sin miniatura: 0; fallidas: 0\./);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** `npm run miniaturas` as the operator runs it, on `dataDir`. */
const cli = (dataDir: string) =>
  runCli([], { ...process.env, ...t.storageEnv, DATA_DIR: dataDir }, 'src/lib/server/cli/miniaturas.server.ts');

import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionMiniatura } from '../../src/lib/format/miniaturas.ts';
import { oas, perfilNiveles, tiposMaterial } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Sesion, unidadDe } from '../support/contenido.ts';
import { type Archivo, formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { zip } from '../support/zip.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let admin: Sesion;
let ref: {
  area: number;
  unidad: number;
  oa1: number;
  oa2: number;
  oaCodigo: string;
  otraUnidad: number;
  oaAjeno: number;
  guia: number;
  rubrica: number;
};
const docx = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' });

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  admin = await t.session({ admin: true });
  const u = await unidadDe(t, 'MA', '07');
  const otra = await unidadDe(t, 'CN', '07');
  const objetivos = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
  const [ajeno] = await t.db.select().from(oas).where(eq(oas.unidad, otra.id));
  const tipos = await t.db.select().from(tiposMaterial);
  ref = {
    area: u.id_area ?? 0,
    unidad: u.id,
    oa1: objetivos[0]?.id ?? 0,
    oa2: objetivos[1]?.id ?? 0,
    oaCodigo: objetivos[0]?.codigo ?? '',
    otraUnidad: otra.id,
    oaAjeno: ajeno?.id ?? 0,
    guia: tipos.find((x) => x.nombre === 'Guía')?.id ?? 0,
    rubrica: tipos.find((x) => x.nombre === 'Rúbrica')?.id ?? 0,
  };
});
afterAll(() => t.close());

const campos = (extra: Record<string, string | string[]> = {}) => ({
  id_area: String(ref.area),
  id_nivel: '07',
  id_unidad: String(ref.unidad),
  oas: [String(ref.oa1), String(ref.oa2)],
  titulo: 'Guía de números enteros',
  descripcion: 'Ejercicios con **la recta numérica**',
  tipo_material_docente: String(ref.guia),
  ...extra,
});

const subir = (token: string, c: Record<string, string | string[]>, archivo?: Archivo) =>
  t.call('POST', '/api/bdocente/', { token, body: formData(c, archivo) });

async function crear(
  extra: Record<string, string | string[]> = {},
  archivo: Archivo = { data: pdf(2), name: 'guia.pdf' },
  token = ana.token,
) {
  const res = await subir(token, campos(extra), archivo);
  expect(res.status).toBe(201);
  return res.json();
}

describe('uploading (every teacher)', () => {
  it('stores a PDF aligned to OAs, with its unit, size, pages and thumbnail', async () => {
    const m = await crear();
    expect(m).toMatchObject({
      titulo: 'Guía de números enteros',
      extension: 'pdf',
      paginas: 2,
      id_area: { id: ref.area },
      id_nivel: { codigo: '07' },
      id_unidad: { id: ref.unidad },
      tipo_material_docente: { id: ref.guia, nombre: 'Guía' },
      id_usuario: { id: ana.id, primer_nombre: 'Ana' },
      archivo: `/api/bdocente/${m.id}/descargar/`,
    });
    expect(m.oas.map((o: { id: number }) => o.id).sort()).toEqual([ref.oa1, ref.oa2].sort());
    const thumb = await t.call('GET', `/miniaturas/bdocente/${m.id}/`, { headers: { cookie: `ed_access=${luis.token}` } });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
  });

  it('makes the cards’ WebP variants of a PDF’s first page, 320x180 and 640x360, and 404 for other widths', async () => {
    const m = await crear();
    const v = versionMiniatura(m.fecha_creacion);
    for (const [ancho, alto] of [
      [320, 180],
      [640, 360],
    ] as const) {
      const res = await t.call('GET', `/miniaturas/bdocente/${m.id}/?ancho=${ancho}&v=${v}`, {
        headers: { cookie: `ed_access=${luis.token}` },
      });
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([ancho, alto]);
    }
    for (const ancho of ['480', 'grande', '..%2Fmaterial.pdf']) {
      expect((await t.call('GET', `/miniaturas/bdocente/${m.id}/?ancho=${ancho}&v=${v}`, { token: luis.token })).status, ancho).toBe(404);
    }
  });

  it('takes Word files by their bytes and shows a type picture for them', async () => {
    const m = await crear({ titulo: 'Planificación de unidad' }, { data: docx, name: 'Planificación.docx' });
    expect(m).toMatchObject({ extension: 'docx', paginas: null });
    const thumb = await t.call('GET', `/miniaturas/bdocente/${m.id}/`, { token: luis.token });
    expect(thumb.headers.get('content-type')).toBe('image/svg+xml');
    expect(await thumb.text()).toContain('aria-label="Word"');
    // The cards ask for a width: the same type picture, which scales to any.
    const enTarjeta = await t.call('GET', `/miniaturas/bdocente/${m.id}/?ancho=640&v=${versionMiniatura(m.fecha_creacion)}`, {
      token: luis.token,
    });
    expect(enTarjeta.headers.get('content-type')).toBe('image/svg+xml');
    expect(await enTarjeta.text()).toContain('aria-label="Word"');
  });

  it('refuses other extensions and files whose bytes are not of their name’s family, keeping nothing', async () => {
    for (const archivo of [
      { data: pdf(), name: 'guia.exe' },
      { data: pdf(), name: 'guia.docx' },
      { data: docx, name: 'guia.xlsx' },
      { data: 'texto plano', name: 'guia.pdf' },
    ]) {
      const res = await subir(ana.token, campos(), archivo);
      expect(res.status, archivo.name).toBe(400);
      expect((await res.json()).errors).toEqual({ archivo: ['El material no es válido. Debe subir un archivo word, pdf, ppt o excel.'] });
    }
    expect((await (await subir(ana.token, campos())).json()).errors).toEqual({ archivo: ['Debe subir un material'] });
  });

  it('answers every message of SPEC 5', async () => {
    const res = await subir(
      ana.token,
      { id_area: '-1', id_nivel: '-1', id_unidad: '-1', titulo: '', descripcion: '', tipo_material_docente: '' },
      { data: pdf(), name: 'a.pdf' },
    );
    expect((await res.json()).errors).toEqual({
      id_area: ['Debe ingresar una area'],
      id_nivel: ['Debe ingresar un nivel'],
      id_unidad: ['Debe ingresar una unidad'],
      oas: ['Debe ingresar al menos un OA'],
      titulo: ['Debe ingresar un título'],
      descripcion: ['Debe ingresar una descripción'],
      tipo_material_docente: ['Debe especificar el tipo de material docente'],
    });
    const largos = await subir(ana.token, campos({ titulo: 'x'.repeat(101), descripcion: 'x'.repeat(1001) }), {
      data: pdf(),
      name: 'a.pdf',
    });
    expect((await largos.json()).errors).toEqual({
      titulo: ['Puede ingresar hasta 100 caracteres'],
      descripcion: ['Puede ingresar hasta 1000 caracteres'],
    });
  });

  it('requires the unit and OAs to belong to the chosen area and level', async () => {
    const unidad = await subir(ana.token, campos({ id_unidad: String(ref.otraUnidad) }), { data: pdf(), name: 'a.pdf' });
    expect((await unidad.json()).errors).toEqual({ id_unidad: ['Debe ingresar una unidad'] });
    const oa = await subir(ana.token, campos({ oas: [String(ref.oa1), String(ref.oaAjeno)] }), { data: pdf(), name: 'a.pdf' });
    expect((await oa.json()).errors).toEqual({ oas: ['Los OA elegidos no corresponden a la asignatura y el nivel'] });
  });
});

describe('searching', () => {
  it('finds by accent-free text, type, level, area, unit and OA', async () => {
    const a = await crear({
      titulo: 'Rúbrica de evaluación matemática',
      tipo_material_docente: String(ref.rubrica),
      oas: [String(ref.oa2)],
    });
    const ids = async (q: string) =>
      (await (await t.call('GET', `/api/bdocente/?${q}`, { token: luis.token })).json()).material.map((m: { id: number }) => m.id);
    expect(await ids('titulo=rubrica%20matematica')).toEqual([a.id]);
    expect(await ids(`tipo_material_docente=${ref.rubrica}`)).toEqual([a.id]);
    expect(await ids(`id_area=${ref.area}&id_nivel=07&id_unidad=${ref.unidad}&oa=${ref.oa2}&titulo=rubrica`)).toEqual([a.id]);
    expect(await ids(`oa=${ref.oa1}`)).not.toContain(a.id);
    expect(await ids('id_nivel=01')).toEqual([]);
  });

  it('gives each material of a page its own OAs, in code order, and its own likes, oldest first', async () => {
    // A page is read in one statement with the OAs and likes as subqueries (issue 36): each must
    // be the row's own, also when materials next to each other have none.
    const [uno, dos, tres] = [
      await crear({ titulo: 'Pareja alfa', oas: [String(ref.oa2), String(ref.oa1)] }),
      await crear({ titulo: 'Pareja beta', oas: [String(ref.oa2)] }),
      await crear({ titulo: 'Pareja gamma' }),
    ];
    const gustar = async (quien: Sesion, id: number) =>
      expect(
        (await t.call('POST', '/api/bdocente/like/', { token: quien.token, json: { id_usuario: quien.id, id_material: id, add: true } }))
          .status,
      ).toBe(200);
    await gustar(luis, uno.id);
    await gustar(admin, uno.id);
    await gustar(ana, dos.id);
    const pagina = await (await t.call('GET', '/api/bdocente/?titulo=pareja', { token: luis.token })).json();
    const codigos = (await t.db.select().from(oas).where(eq(oas.unidad, ref.unidad))).filter((o) => o.id === ref.oa1 || o.id === ref.oa2);
    const enOrden = codigos
      .map((o) => o.id)
      .sort((a, b) => {
        const [ca, cb] = [codigos.find((o) => o.id === a)?.codigo ?? '', codigos.find((o) => o.id === b)?.codigo ?? ''];
        return ca < cb ? -1 : ca > cb ? 1 : 0;
      });
    expect(
      pagina.material.map((m: { id: number; oas: { id: number; vigente: boolean }[]; likes: { id: number }[] }) => ({
        id: m.id,
        oas: m.oas.map((o) => [o.id, o.vigente]),
        likes: m.likes,
      })),
    ).toEqual([
      { id: tres.id, oas: enOrden.map((id) => [id, true]), likes: [] },
      { id: dos.id, oas: [[ref.oa2, true]], likes: [{ id: ana.id }] },
      { id: uno.id, oas: enOrden.map((id) => [id, true]), likes: [{ id: luis.id }, { id: admin.id }] },
    ]);
  });
});

describe('one material', () => {
  it('shows it with a view counted once per visit, or 404 "No se encontró material"', async () => {
    const m = await crear();
    await t.call('GET', `/api/bdocente/${m.id}/`, { token: luis.token });
    expect((await (await t.call('GET', `/api/bdocente/${m.id}/`, { token: luis.token })).json()).n_visitas).toBe(1);
    expect(await (await t.call('GET', '/api/bdocente/999999/', { token: luis.token })).json()).toMatchObject({
      detail: 'No se encontró material',
    });
  });

  it('downloads as titulo.extension', async () => {
    const m = await crear({ titulo: 'Evaluación diagnóstica' }, { data: docx, name: 'x.docx' });
    const res = await t.call('GET', `/api/bdocente/${m.id}/descargar/`, { token: luis.token });
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''Evaluaci%C3%B3n%20diagn%C3%B3stica.docx`);
    expect(Buffer.from(await res.arrayBuffer()).equals(docx)).toBe(true);
  });

  it('is edited by its author (or an admin) with new OAs; others get 403', async () => {
    const m = await crear();
    const edit = { ...campos({ titulo: 'Editado', oas: [String(ref.oa1)], tipo_material_docente: String(ref.rubrica) }), id: String(m.id) };
    expect((await t.call('PUT', '/api/bdocente/', { token: luis.token, body: formData(edit) })).status).toBe(403);
    expect((await t.call('PUT', '/api/bdocente/', { token: ana.token, body: formData(edit) })).status).toBe(204);
    const after = await (await t.call('GET', `/api/bdocente/${m.id}/`, { token: ana.token })).json();
    expect(after).toMatchObject({ titulo: 'Editado', tipo_material_docente: { id: ref.rubrica } });
    expect(after.oas.map((o: { id: number }) => o.id)).toEqual([ref.oa1]);
    expect((await t.call('PUT', '/api/bdocente/', { token: admin.token, body: formData({ ...edit, titulo: 'Moderado' }) })).status).toBe(
      204,
    );
  });

  it('is deleted by its author with its file, comments and likes; others get 403', async () => {
    const m = await crear();
    await t.call('POST', '/api/bdocente/comentarios/', {
      token: luis.token,
      json: { id_usuario: luis.id, id_recurso: m.id, tipo_recurso: 'id_material_docente', contenido: 'Útil' },
    });
    expect((await t.call('DELETE', `/api/bdocente/${m.id}/`, { token: luis.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/bdocente/${m.id}/`, { token: ana.token })).status).toBe(204);
    expect((await t.call('GET', `/api/bdocente/${m.id}/`, { token: ana.token })).status).toBe(404);
    expect(await t.storage.size(`materiales/${m.id}/material.pdf`)).toBeNull();
  });

  it('takes comments, replies and likes in the user’s own name', async () => {
    const m = await crear();
    const base = { id_recurso: m.id, tipo_recurso: 'id_material_docente' };
    const c = await t.call('POST', '/api/bdocente/comentarios/', {
      token: luis.token,
      json: { ...base, id_usuario: luis.id, contenido: '¿Tiene solucionario?' },
    });
    expect(c.status).toBe(201);
    const reply = await t.call('POST', '/api/bdocente/comentarios/', {
      token: ana.token,
      json: { ...base, id_usuario: ana.id, contenido: 'Sí', id_respuesta_comentario: (await c.json()).id },
    });
    expect(await reply.json()).toMatchObject({ tipo_recurso: 'id_material_docente', id_recurso: m.id });
    const lista = await (await t.call('GET', `/api/bdocente/comentarios/${m.id}/`, { token: luis.token })).json();
    expect([lista.comentarios_base.length, lista.comentarios_hijos.length]).toEqual([1, 1]);
    const like = await t.call('POST', '/api/bdocente/like/', {
      token: luis.token,
      json: { id_usuario: luis.id, id_material: m.id, add: true },
    });
    expect((await like.json()).likes).toEqual([{ id: luis.id }]);
    expect(
      (await t.call('POST', '/api/bdocente/like/', { token: luis.token, json: { id_usuario: ana.id, id_material: m.id, add: true } }))
        .status,
    ).toBe(403);
  });
});

describe('curriculum lookups still answer under /api/bdocente/', () => {
  it('keeps /api/bdocente/tipo/ for material types', async () => {
    const res = await t.call('GET', '/api/bdocente/tipo/', { token: luis.token });
    expect(res.status).toBe(200);
    expect((await res.json()).length).toBeGreaterThan(5);
  });

  it('finds an OA by its official code (for the OA page)', async () => {
    const oa = await t.api.services.biblioteca.oaPorCodigo(ref.oaCodigo);
    expect(oa).toMatchObject({ codigo: ref.oaCodigo, nivel: { codigo: '07' } });
    expect(await t.api.services.biblioteca.oaPorCodigo('XX99 OA 99')).toBeNull();
  });

  it("names, for a shared module's OA, the level the teacher teaches, else the module's own (decision 0084)", async () => {
    // Educación Física's 3° medio modules are taught in 4° medio too.
    const modulo = await unidadDe(t, 'EF', '3M');
    const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, modulo.id));
    const codigo = oa?.codigo ?? '';
    const [de4, deAmbos, sinNivel] = [await t.session(), await t.session(), await t.session()];
    await t.db.insert(perfilNiveles).values([
      { id_usuario: de4.id, codigo_nivel: '07' },
      { id_usuario: de4.id, codigo_nivel: '4M' },
      { id_usuario: deAmbos.id, codigo_nivel: '4M' },
      { id_usuario: deAmbos.id, codigo_nivel: '3M' },
    ]);
    const nivel = async (id?: number) => (await t.api.services.biblioteca.oaPorCodigo(codigo, id))?.nivel;
    expect(await nivel(de4.id)).toEqual({ codigo: '4M', nombre: '3° medio y 4° medio' });
    expect(await nivel(deAmbos.id)).toEqual({ codigo: '3M', nombre: '3° medio y 4° medio' });
    expect(await nivel(sinNivel.id)).toEqual({ codigo: '3M', nombre: '3° medio y 4° medio' });
    expect(await nivel()).toEqual({ codigo: '3M', nombre: '3° medio y 4° medio' });
    // A unit of one level is opened in it whatever the teacher teaches.
    expect((await t.api.services.biblioteca.oaPorCodigo(ref.oaCodigo, de4.id))?.nivel.codigo).toBe('07');
  });
});

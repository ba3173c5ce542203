/**
 * Issue 34: the licence of every capsule, material and manual, the network's default, the rule
 * that only an open licence may be public, and which files answer a visitor with no session.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { materiales, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { PUBLICO_SIN_LICENCIA } from '../../src/lib/validation/licencias.ts';
import { capsulaPublica, jsonLd, manualPublico, materialPublico } from '../../src/pages/explorar/_componentes/publica.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { camposDeMaterial, insertarCapsula, insertarManual, type Sesion } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { erroresSchemaOrg } from '../support/schema-org.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let admin: Sesion;
let campos: Record<string, string | string[]>;

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  admin = await t.session({ admin: true });
  campos = await camposDeMaterial(t);
});
afterAll(() => t.close());

const subir = (extra: Record<string, string> = {}, token = ana.token) =>
  t.call('POST', '/api/bdocente/', { token, body: formData({ ...campos, ...extra }, { data: pdf(1), name: 'guia.pdf' }) });

async function crear(extra: Record<string, string> = {}) {
  const res = await subir(extra);
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; licencia: string; visibilidad: string };
}

const editar = (id: number, extra: Record<string, string>, token = ana.token) =>
  t.call('PUT', '/api/bdocente/', { token, json: { ...campos, id, ...extra } });

/** A GET with no session at all, as a search engine or a link preview makes it. */
const anonimo = (path: string) => t.call('GET', path);

describe('the licence', () => {
  it("is the network's default when the upload names none, 'reservados' until an admin sets one", async () => {
    expect(await crear()).toMatchObject({ licencia: 'reservados', visibilidad: 'red' });
    await t.api.services.publicacion.guardarLicenciaPorDefecto({ id: admin.id }, 'CC-BY-SA-4.0');
    expect(await crear()).toMatchObject({ licencia: 'CC-BY-SA-4.0', visibilidad: 'red' });
    await t.api.services.publicacion.guardarLicenciaPorDefecto({ id: admin.id }, 'reservados');
  });

  it('is one of the six codes, refused otherwise with a Spanish message', async () => {
    const res = await subir({ licencia: 'GPL-3.0' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors.licencia).toEqual(['Licencia no válida']);
  });

  it('public needs an open licence: on upload, and on an edit that keeps the stored one', async () => {
    const res = await subir({ licencia: 'reservados', visibilidad: 'publico' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors.visibilidad).toEqual([PUBLICO_SIN_LICENCIA]);

    const m = await crear();
    const sinLicencia = await editar(m.id, { visibilidad: 'publico' });
    expect(sinLicencia.status).toBe(400);
    expect((await sinLicencia.json()).detail).toBe(PUBLICO_SIN_LICENCIA);
    expect((await editar(m.id, { visibilidad: 'publico', licencia: 'CC-BY-4.0' })).status).toBe(204);
    const visto = await (await t.call('GET', `/api/bdocente/${m.id}/`, { token: luis.token })).json();
    expect(visto).toMatchObject({ licencia: 'CC-BY-4.0', visibilidad: 'publico' });
  });

  it('names itself in a Link header on the download (none for all rights reserved)', async () => {
    const abierto = await crear({ licencia: 'CC-BY-NC-4.0' });
    const res = await t.call('GET', `/api/bdocente/${abierto.id}/descargar/`, { headers: { cookie: `ed_access=${luis.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe('<https://creativecommons.org/licenses/by-nc/4.0/>; rel="license"');
    const cerrado = await crear();
    const res2 = await t.call('GET', `/api/bdocente/${cerrado.id}/descargar/`, { headers: { cookie: `ed_access=${luis.token}` } });
    expect(res2.headers.get('link')).toBeNull();
  });
});

describe('files without a session', () => {
  it('a public material: its download and thumbnail answer anyone, cacheable for a while', async () => {
    const m = await crear({ licencia: 'CC-BY-4.0', visibilidad: 'publico' });
    const descarga = await anonimo(`/api/bdocente/${m.id}/descargar/`);
    expect(descarga.status).toBe(200);
    expect(descarga.headers.get('cache-control')).toBe('public, max-age=300');
    expect(descarga.headers.get('content-disposition')).toContain('Gu');
    expect((await anonimo(`/miniaturas/bdocente/${m.id}/`)).status).toBe(200);
  });

  it('a private, a hidden, and a public one turned back to the network answer 401, and leave the public lists at once', async () => {
    const privado = await crear({ licencia: 'CC-BY-4.0' });
    const oculto = await crear({ licencia: 'CC-BY-4.0', visibilidad: 'publico' });
    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, oculto.id));
    const vuelto = await crear({ licencia: 'CC0-1.0', visibilidad: 'publico' });
    expect((await anonimo(`/api/bdocente/${vuelto.id}/descargar/`)).status).toBe(200);
    expect((await editar(vuelto.id, { visibilidad: 'red' })).status).toBe(204);
    for (const { id } of [privado, oculto, vuelto]) {
      expect((await anonimo(`/api/bdocente/${id}/descargar/`)).status).toBe(401);
      expect((await anonimo(`/miniaturas/bdocente/${id}/`)).status).toBe(401);
    }
    const publicos = t.api.services.publicos;
    const mapa = await publicos.mapa();
    for (const { id } of [privado, oculto, vuelto]) {
      expect(await publicos.material(id)).toBeNull();
      expect(mapa.some((e) => e.tipo === 'material' && e.id === id)).toBe(false);
    }
  });

  it("a deactivated author's public material is not public", async () => {
    const carla = await t.session({ nombre: 'Carla' });
    const res = await subir({ licencia: 'CC-BY-4.0', visibilidad: 'publico' }, carla.token);
    const { id } = await res.json();
    expect((await anonimo(`/api/bdocente/${id}/descargar/`)).status).toBe(200);
    await t.db.update(usuarios).set({ desactivada_en: new Date(), activo: false }).where(eq(usuarios.id, carla.id));
    expect((await anonimo(`/api/bdocente/${id}/descargar/`)).status).toBe(401);
  });

  it('capsules and manuals: the poster and the video files of a private one need a session', async () => {
    const capsula = await insertarCapsula(t, admin, 'Clase privada', { estado: 'listo', licencia: 'CC-BY-4.0' });
    const manual = await insertarManual(t, admin, 'Manual privado', { licencia: 'CC-BY-4.0' });
    expect((await anonimo(`/miniaturas/capsulas/${capsula}/`)).status).toBe(401);
    expect((await anonimo(`/streaming/${capsula}/manifest.m3u8`)).status).toBe(401);
    expect((await anonimo(`/api/manuales/${manual}/descargar/`)).status).toBe(401);
    const publica = await insertarCapsula(t, admin, 'Clase abierta', { estado: 'listo', licencia: 'CC-BY-4.0', visibilidad: 'publico' });
    expect((await anonimo(`/miniaturas/capsulas/${publica}/`)).status).toBe(200);
    const procesando = await insertarCapsula(t, admin, 'Clase en proceso', {
      estado: 'procesando',
      licencia: 'CC-BY-4.0',
      visibilidad: 'publico',
    });
    expect((await anonimo(`/miniaturas/capsulas/${procesando}/`)).status).toBe(401);
  });

  it('the sitemap lists the public items with their last change', async () => {
    const m = await crear({ licencia: 'CC-BY-4.0', visibilidad: 'publico' });
    const mapa = await t.api.services.publicos.mapa();
    const entrada = mapa.find((e) => e.tipo === 'material' && e.id === m.id);
    expect(entrada?.fecha).toBeInstanceOf(Date);
    expect(mapa.every((e) => e.tipo !== 'material' || e.id !== m.id + 1000)).toBe(true);
  });
});

describe("a public page's JSON-LD", () => {
  const base = 'https://docentes.example.cl';
  const AMBOS = 'S.MergeLeafTypes<[S.LearningResourceLeaf, S.VideoObjectLeaf]>';

  it("fits schema.org's types (schema-dts, checked by TypeScript) for a material, a manual and a capsule", async () => {
    const publicos = t.api.services.publicos;
    const m = await crear({ licencia: 'CC-BY-SA-4.0', visibilidad: 'publico' });
    const material = await publicos.material(m.id);
    const manualId = await insertarManual(t, admin, 'Manual abierto', { licencia: 'CC0-1.0', visibilidad: 'publico' });
    const manual = await publicos.manual(manualId);
    const capsulaId = await insertarCapsula(t, admin, 'Clase abierta de fracciones', {
      estado: 'listo',
      licencia: 'CC-BY-4.0',
      visibilidad: 'publico',
      duracion: 192,
    });
    const capsula = await publicos.capsula(capsulaId);
    if (!material || !manual || !capsula) throw new Error('the public items were not found');

    const deMaterial = jsonLd(materialPublico(material), base);
    expect(deMaterial).toMatchObject({ '@type': 'LearningResource', inLanguage: 'es-CL', educationalLevel: '7° básico' });
    const deCapsula = jsonLd(capsulaPublica(capsula), base);
    expect(deCapsula).toMatchObject({ '@type': ['LearningResource', 'VideoObject'], duration: 'PT3M12S' });
    const alineacion = { '@type': 'AlignmentObject', alignmentType: 'teaches', targetNombre: 'MA07 OA 01' };
    const errores = erroresSchemaOrg([
      [deMaterial, 'S.LearningResource'],
      [jsonLd(manualPublico(manual), base), 'S.LearningResource'],
      [deCapsula, AMBOS],
      // The check bites: a property schema.org does not define, a misspelt one, a value of the wrong kind.
      [{ ...deMaterial, licencia: 'CC-BY-4.0' }, 'S.LearningResource'],
      [{ ...deMaterial, educationalAlignment: [alineacion] }, 'S.LearningResource'],
      [{ ...deCapsula, duration: 192 }, AMBOS],
    ]);
    expect(errores.slice(0, 3)).toEqual([[], [], []]);
    expect(errores.slice(3).map((e) => e.length)).toEqual([1, 1, 1]);
    expect(errores[4]?.[0]).toContain('\'"targetNombre"\' does not exist in type');
  }, 60_000);
});

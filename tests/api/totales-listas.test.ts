/**
 * The materials' and manuals' list totals (`num_results`) and the curriculum map's counts stay exact while the
 * part every reader sees is kept between requests (issue 36, decision 0081): after uploads, a delete, moderation hiding and
 * restoring, an edit that moves a material out of a filter, a change of its OAs, and writes made
 * straight to the database as another server would make them. A visit or a comment, which write
 * the material's row too, do not make it count again. Each total is checked against a count of
 * the rows the same reader may see.
 */
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crearConteos } from '../../src/lib/server/db/conteos.server.ts';
import { areas, manuales, materiales, materialesOas, oas, versionesConteo } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { camposDeMaterial, insertarManual, publicarMaterial, type Sesion, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let admin: Sesion;
let campos: Record<string, string | string[]>;
let oaUno: number;
let oaDos: number;
let otraUnidad: number;

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  admin = await t.session({ admin: true });
  campos = await camposDeMaterial(t);
  const u = await unidadDe(t, 'MA', '07');
  const objetivos = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
  oaUno = objetivos[0]?.id ?? 0;
  oaDos = objetivos[1]?.id ?? 0;
  otraUnidad = (await unidadDe(t, 'MA', '08')).id;
});
afterAll(() => t.close());

const subir = async (token: string, extra: Record<string, string | string[]> = {}) => {
  const res = await t.call('POST', '/api/bdocente/', { token, body: formData({ ...campos, ...extra }, { data: pdf(), name: 'g.pdf' }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
};

const total = async (s: Sesion, query = '', lista = '/api/bdocente/') => {
  const res = await t.call('GET', `${lista}?${query}`, { token: s.token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { num_results: number }).num_results;
};

/** What the reader may see, counted from the rows: everything for an admin, else what is not hidden and their own. */
async function contados(s: Sesion, filtro = sql`true`, tabla: typeof materiales | typeof manuales = materiales) {
  const visible = s === admin ? sql`true` : or(eq(tabla.oculto, false), eq(tabla.id_usuario, s.id));
  const [fila] = await t.db.select({ n: sql<number>`count(*)::int` }).from(tabla).where(and(visible, filtro));
  return fila?.n ?? 0;
}

const version = async (tabla = 'materiales') =>
  (await t.db.select().from(versionesConteo).where(eq(versionesConteo.tabla, tabla)))[0]?.version ?? null;

interface Mapa {
  niveles: {
    codigo: string;
    n_materiales: number;
    unidades: { id: number; n_materiales: number; oas: { id: number; n_materiales: number }[] }[];
  }[];
}

/** The curriculum map of the materials' area: each count is the matching list's total for the same reader. */
async function mapaComoListas(s: Sesion) {
  const area = Number(campos.id_area);
  const res = await t.call('GET', `/api/bdocente/cobertura/?area=${area}`, { token: s.token });
  expect(res.status).toBe(200);
  const mapa = (await res.json()) as Mapa;
  const nivel = mapa.niveles.find((n) => n.codigo === '07');
  const unidad = nivel?.unidades.find((u) => u.id === Number(campos.id_unidad));
  const oa = unidad?.oas.find((o) => o.id === oaDos);
  expect(nivel?.n_materiales, 'nivel en el mapa').toBe(await total(s, `id_area=${area}&id_nivel=07`));
  expect(unidad?.n_materiales, 'unidad en el mapa').toBe(await total(s, `id_unidad=${unidad?.id}`));
  expect(oa?.n_materiales, 'OA en el mapa').toBe(await total(s, `oa=${oaDos}`));
}

/** Every reader's total, unfiltered and by unit, OA and title, against the rows; and the map's counts against the totals. */
async function exactos() {
  const unidad = Number(campos.id_unidad);
  const porOa = (oa: number) =>
    sql`exists (select 1 from ${materialesOas} where ${materialesOas.id_material} = ${materiales.id} and ${materialesOas.id_oa} = ${oa})`;
  for (const s of [ana, luis, admin]) {
    expect(await total(s), 'sin filtro').toBe(await contados(s));
    expect(await total(s, `id_unidad=${unidad}`), 'unidad').toBe(await contados(s, eq(materiales.id_unidad, unidad)));
    // An OA alone is counted from its links less the hidden materials (decision 0081 amended); with a unit, as any filter.
    for (const oa of [oaUno, oaDos]) {
      expect(await total(s, `oa=${oa}`), `OA ${oa}`).toBe(await contados(s, porOa(oa)));
      expect(await total(s, `oa=${oa}&id_unidad=${unidad}`), `OA ${oa} y unidad`).toBe(
        await contados(s, and(porOa(oa), eq(materiales.id_unidad, unidad))),
      );
    }
    expect(await total(s, 'titulo=fracciones'), 'título').toBe(await contados(s, sql`${materiales.titulo} ilike '%fracciones%'`));
    await mapaComoListas(s);
  }
}

describe('the materials list total', () => {
  it('stays exact through uploads, edits, OA changes, moderation, deletes and writes from another server', async () => {
    const primeros = [await subir(ana.token), await subir(ana.token, { oas: [String(oaDos)] }), await subir(luis.token)];
    await exactos();
    expect(await total(luis)).toBe(3);

    // Another upload: every reader's kept total moves on.
    const cuarto = await subir(luis.token, { titulo: 'Guía de geometría' });
    await exactos();
    expect(await total(ana)).toBe(4);

    // Hidden by moderation: gone from Luis's total, still in its author's and the admin's.
    const [oculto] = primeros;
    await t.db
      .update(materiales)
      .set({ oculto: true })
      .where(eq(materiales.id, oculto?.id ?? 0));
    await exactos();
    expect([await total(ana), await total(luis), await total(admin)]).toEqual([4, 3, 4]);
    await t.db
      .update(materiales)
      .set({ oculto: false })
      .where(eq(materiales.id, oculto?.id ?? 0));
    expect(await total(luis)).toBe(4);

    // An edit that takes a material to another unit, and one that changes its OAs.
    const [oaOcho] = await t.db.select().from(oas).where(eq(oas.unidad, otraUnidad));
    const edit = { ...campos, id_unidad: String(otraUnidad), id_nivel: '08', oas: [String(oaOcho?.id)], id: String(cuarto.id) };
    expect((await t.call('PUT', '/api/bdocente/', { token: luis.token, body: formData(edit) })).status).toBe(204);
    await exactos();
    const conOaDos = { ...campos, oas: [String(oaUno), String(oaDos)], id: String(primeros[2]?.id) };
    expect((await t.call('PUT', '/api/bdocente/', { token: luis.token, body: formData(conOaDos) })).status).toBe(204);
    await exactos();
    expect(await total(ana, `oa=${oaDos}`)).toBe(2);

    // Rows another server wrote: a material and an OA link, straight into the database.
    const ajeno = await publicarMaterial(t, ana, 'Guía de fracciones de otro servidor', { unidad: Number(campos.id_unidad), oas: [oaUno] });
    await exactos();
    await t.db.insert(materialesOas).values({ id_material: ajeno, id_oa: oaDos });
    await exactos();
    expect(await total(luis, `oa=${oaDos}`)).toBe(3);

    // A delete.
    expect((await t.call('DELETE', `/api/bdocente/${ajeno}/`, { token: ana.token })).status).toBe(204);
    await exactos();
    expect(await total(luis)).toBe(4);
  });

  it('is not counted again after a visit or a comment, which write only the row’s counters', async () => {
    const m = await subir(ana.token, { titulo: 'Guía visitada' });
    await total(luis);
    const antes = await version();
    expect(antes).not.toBeNull();
    expect((await t.call('GET', `/api/bdocente/${m.id}/`, { token: luis.token })).status).toBe(200);
    const comentario = await t.call('POST', '/api/bdocente/comentarios/', {
      token: luis.token,
      json: { id_usuario: luis.id, id_recurso: m.id, tipo_recurso: 'id_material_docente', contenido: 'Muy útil' },
    });
    expect(comentario.status).toBe(201);
    const [fila] = await t.db
      .select()
      .from(materiales)
      .where(inArray(materiales.id, [m.id]));
    expect([fila?.n_visitas, fila?.n_comentarios]).toEqual([1, 1]);
    expect(await version()).toBe(antes);
    await exactos();
    // A real change still moves it.
    await t.db.update(materiales).set({ titulo: 'Guía visitada y renombrada' }).where(eq(materiales.id, m.id));
    expect(await version()).not.toBe(antes);
  });

  it('is counted once for requests that arrive together, and again after a count that failed', async () => {
    const conteos = crearConteos(t.db);
    let veces = 0;
    const contar = async () => {
      veces += 1;
      await new Promise((r) => setTimeout(r, 50));
      return 7;
    };
    const juntas = await Promise.all(Array.from({ length: 20 }, () => conteos.porVersion('materiales', 'juntas', contar)));
    expect(juntas).toEqual(Array(20).fill(7));
    expect(veces).toBe(1);

    const fallida = conteos.porVersion('materiales', 'fallida', async () => {
      throw new Error('sin conexión');
    });
    await expect(fallida).rejects.toThrow('sin conexión');
    expect(await conteos.porVersion('materiales', 'fallida', async () => 3)).toBe(3);
  });
});

describe('the manuals list total', () => {
  const totalManuales = (s: Sesion, query = '') => total(s, query, '/api/manuales/');
  const contadosManuales = (s: Sesion, filtro = sql`true`) => contados(s, filtro, manuales);
  const areaDe = async (codigo: string) => (await t.db.select().from(areas).where(eq(areas.codigo, codigo)))[0]?.id ?? 0;
  let ma: number;
  let le: number;
  beforeAll(async () => {
    [ma, le] = [await areaDe('MA'), await areaDe('LE')];
  });
  async function exactosManuales() {
    for (const s of [ana, luis, admin]) {
      expect(await totalManuales(s), 'sin filtro').toBe(await contadosManuales(s));
      for (const area of [ma, le])
        expect(await totalManuales(s, `area=${area}`), `área ${area}`).toBe(await contadosManuales(s, eq(manuales.id_area, area)));
      expect(await totalManuales(s, 'titulo=didactica'), 'título').toBe(
        await contadosManuales(s, sql`${manuales.titulo} ilike '%didáctica%'`),
      );
    }
  }
  const subirManual = async (titulo: string, area: number) => {
    const body = formData(
      { titulo, descripcion: 'Estrategias de aula', id_area: String(area) },
      { data: pdf(), name: 'm.pdf', type: 'application/pdf' },
    );
    const res = await t.call('POST', '/api/manuales/', { token: admin.token, body });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };

  it('stays exact through uploads, edits, moderation, deletes and rows another server wrote; visits do not move it', async () => {
    const primero = await subirManual('Didáctica de la Matemática', ma);
    await subirManual('Lectura en voz alta', le);
    await exactosManuales();
    expect(await totalManuales(luis)).toBe(2);

    // Ana's manual, written straight to the database as another server would (she was an admin then).
    const deAna = await insertarManual(t, ana, 'Didáctica de la lectura', { id_area: le });
    await exactosManuales();
    expect(await totalManuales(luis)).toBe(3);

    // Hidden by moderation: gone from Luis's total, still in its author's and the admin's.
    await t.db.update(manuales).set({ oculto: true }).where(eq(manuales.id, deAna));
    await exactosManuales();
    expect([await totalManuales(ana), await totalManuales(luis), await totalManuales(admin)]).toEqual([3, 2, 3]);

    // An edit that moves a manual to another area.
    const edicion = formData({ id: String(primero), titulo: 'Didáctica de la Matemática', descripcion: 'Otra', id_area: String(le) });
    expect((await t.call('PUT', '/api/manuales/', { token: admin.token, body: edicion })).status).toBe(204);
    await exactosManuales();
    expect(await totalManuales(luis, `area=${ma}`)).toBe(0);

    // A visit writes only the row's counter: the kept total stands.
    const antes = await version('manuales');
    expect(antes).not.toBeNull();
    expect((await t.call('GET', `/api/manuales/${primero}/`, { token: luis.token })).status).toBe(200);
    expect(await version('manuales')).toBe(antes);

    // A delete.
    expect((await t.call('DELETE', `/api/manuales/${primero}/`, { token: admin.token })).status).toBe(204);
    await exactosManuales();
    expect(await totalManuales(luis)).toBe(1);
  });
});

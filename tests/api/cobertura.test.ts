/**
 * GET /api/bdocente/cobertura/ (issue 21): the curriculum map's counts. Every number equals what the
 * matching list shows the same person (a level's: the list by area and level; a unit's: by unit; an
 * OA's: by OA), a hidden material counts only for its author and admins, `nivel` narrows the answer
 * to one level, and the query is checked (400, 404, 401). Every response is checked against
 * openapi.yaml by the harness.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../src/lib/api/schema';
import { areas, areasNiveles, materiales, materialesOas, niveles, oas, unidades } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { llamadas, publicarMaterial, type Sesion } from '../support/contenido.ts';

type Cobertura = components['schemas']['Cobertura'];

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let admin: Sesion;
const { get, json } = llamadas(() => t);

/** Matemática's ids: two units of 7° básico and one of 8° básico, with some of their OAs. */
let ma: { area: number; u1: number; u2: number; u8: number; oa1a: number; oa1b: number; oa2a: number; oa8: number };

async function unidadesDe(area: number, nivel: string) {
  return t.db
    .select()
    .from(unidades)
    .where(and(eq(unidades.id_area, area), eq(unidades.codigo_nivel, nivel)))
    .orderBy(asc(unidades.codigo));
}
const oasDe = (unidad: number) => t.db.select().from(oas).where(eq(oas.unidad, unidad)).orderBy(asc(oas.codigo));

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  admin = await t.session({ admin: true });
  const [area] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
  if (!area) throw new Error('Matemática not seeded');
  const [u1, u2] = await unidadesDe(area.id, '07');
  const [u8] = await unidadesDe(area.id, '08');
  if (!u1 || !u2 || !u8) throw new Error('Matemática 7° and 8° units not seeded');
  const [[oa1a, oa1b], [oa2a], [oa8]] = await Promise.all([oasDe(u1.id), oasDe(u2.id), oasDe(u8.id)]);
  if (!oa1a || !oa1b || !oa2a || !oa8) throw new Error('OAs not seeded');
  ma = { area: area.id, u1: u1.id, u2: u2.id, u8: u8.id, oa1a: oa1a.id, oa1b: oa1b.id, oa2a: oa2a.id, oa8: oa8.id };
  // 6° básico is the level without units: whatever the shipped curriculum holds for it, retired here.
  await t.db
    .update(unidades)
    .set({ vigente: false })
    .where(and(eq(unidades.id_area, area.id), eq(unidades.codigo_nivel, '06')));

  // One material with OAs of two units (it records unit 1), one more of unit 1, one of 8° by Luis,
  // and one of Ana's hidden by moderation.
  await publicarMaterial(t, ana, 'Guía de enteros y potencias', { unidad: ma.u1, oas: [ma.oa1a, ma.oa2a] });
  await publicarMaterial(t, ana, 'Evaluación de enteros', { unidad: ma.u1, oas: [ma.oa1a] });
  await publicarMaterial(t, luis, 'Guía de 8°', { unidad: ma.u8, oas: [ma.oa8] });
  await publicarMaterial(t, ana, 'Guía oculta', { unidad: ma.u2, oas: [ma.oa2a] }, { oculto: true });
});
afterAll(() => t.close());

const cobertura = (quien: Sesion, consulta: string) => json<Cobertura>(quien, `/api/bdocente/cobertura/?${consulta}`);

function nivelDe(c: Cobertura, codigo: string) {
  const nivel = c.niveles.find((n) => n.codigo === codigo);
  if (!nivel) throw new Error(`no level ${codigo} in the answer`);
  return nivel;
}
const unidadDe = (c: Cobertura, id: number) => c.niveles.flatMap((n) => n.unidades).find((u) => u.id === id);
const oaDe = (c: Cobertura, id: number) =>
  c.niveles
    .flatMap((n) => n.unidades)
    .flatMap((u) => u.oas)
    .find((o) => o.id === id);

describe('the counts', () => {
  it("answers the area and every level it is taught in, in the school years' order, each with its units and OAs by codigo", async () => {
    const c = await cobertura(luis, `area=${ma.area}`);
    expect(c.area).toMatchObject({ id: ma.area, codigo: 'MA', nombre: 'Matemática' });
    const enseñado = await t.db
      .select({ codigo: niveles.codigo })
      .from(areasNiveles)
      .innerJoin(niveles, eq(niveles.codigo, areasNiveles.codigo_nivel))
      .where(eq(areasNiveles.id_area, ma.area))
      .orderBy(asc(niveles.orden));
    expect(c.niveles.map((n) => n.codigo)).toEqual(enseñado.map((n) => n.codigo));
    const septimo = nivelDe(c, '07');
    expect(septimo.nombre).toBe('7° básico');
    expect(septimo.unidades.map((u) => u.codigo)).toEqual((await unidadesDe(ma.area, '07')).map((u) => u.codigo));
    const primera = septimo.unidades[0];
    expect(primera?.oas.map((o) => o.codigo)).toEqual((await oasDe(ma.u1)).map((o) => o.codigo));
    expect(primera?.oas[0]).toEqual({ id: ma.oa1a, codigo: 'MA07 OA 01', descripcion: expect.any(String), n_materiales: 2 });
    // A level with no units in force (6° básico's were retired above) is still a row, with nothing in it.
    expect(nivelDe(c, '06')).toEqual({ codigo: '06', nombre: '6° básico', n_materiales: 0, unidades: [] });
  });

  it('counts a material with OAs of two units in its own unit and in both OAs', async () => {
    const c = await cobertura(luis, `area=${ma.area}`);
    expect(nivelDe(c, '07').n_materiales).toBe(2);
    expect(unidadDe(c, ma.u1)?.n_materiales).toBe(2);
    expect(unidadDe(c, ma.u2)?.n_materiales).toBe(0);
    expect(oaDe(c, ma.oa1a)?.n_materiales).toBe(2);
    expect(oaDe(c, ma.oa2a)?.n_materiales).toBe(1);
    expect(oaDe(c, ma.oa1b)?.n_materiales).toBe(0);
    expect(nivelDe(c, '08').n_materiales).toBe(1);
    expect(unidadDe(c, ma.u8)?.n_materiales).toBe(1);
    expect(oaDe(c, ma.oa8)?.n_materiales).toBe(1);
  });

  it('counts a hidden material only for its author and for admins', async () => {
    for (const quien of [ana, admin]) {
      const c = await cobertura(quien, `area=${ma.area}`);
      expect(nivelDe(c, '07').n_materiales).toBe(3);
      expect(unidadDe(c, ma.u2)?.n_materiales).toBe(1);
      expect(oaDe(c, ma.oa2a)?.n_materiales).toBe(2);
    }
    const deLuis = await cobertura(luis, `area=${ma.area}`);
    expect(unidadDe(deLuis, ma.u2)?.n_materiales).toBe(0);
  });

  it('narrows to one level with nivel, and to none when the area is not taught in it', async () => {
    const c = await cobertura(luis, `area=${ma.area}&nivel=08`);
    expect(c.niveles.map((n) => n.codigo)).toEqual(['08']);
    expect(nivelDe(c, '08').n_materiales).toBe(1);
    expect(oaDe(c, ma.oa8)?.n_materiales).toBe(1);
    expect((await cobertura(luis, `area=${ma.area}&nivel=NT1`)).niveles).toEqual([]);
    // The placeholders of a select mean every level.
    const todos = await cobertura(luis, `area=${ma.area}&nivel=-1`);
    expect(todos.niveles.length).toBeGreaterThan(2);
  });

  it('counts an area with no materials as zeros everywhere', async () => {
    const [cn] = await t.db.select().from(areas).where(eq(areas.codigo, 'CN'));
    const c = await cobertura(luis, `area=${cn?.id}`);
    const numeros = c.niveles.flatMap((n) => [
      n.n_materiales,
      ...n.unidades.flatMap((u) => [u.n_materiales, ...u.oas.map((o) => o.n_materiales)]),
    ]);
    expect(numeros.length).toBeGreaterThan(10);
    expect(new Set(numeros)).toEqual(new Set([0]));
  });

  it('gives each number the num_results of the matching GET /api/bdocente/ for the same person', async () => {
    const total = async (quien: Sesion, filtro: string) =>
      (await json<{ num_results: number }>(quien, `/api/bdocente/?${filtro}&tamano_pagina=5`)).num_results;
    for (const quien of [luis, ana]) {
      for (const codigo of ['07', '08']) {
        const nivel = nivelDe(await cobertura(quien, `area=${ma.area}&nivel=${codigo}`), codigo);
        expect(await total(quien, `id_area=${ma.area}&id_nivel=${codigo}`)).toBe(nivel.n_materiales);
        for (const unidad of nivel.unidades) {
          expect(await total(quien, `id_unidad=${unidad.id}`)).toBe(unidad.n_materiales);
          for (const oa of unidad.oas) expect(await total(quien, `oa=${oa.id}`), oa.codigo).toBe(oa.n_materiales);
        }
      }
    }
  });
});

describe('as things change', () => {
  it('follows moderation and the curriculum read after read: an author keeps counting her hidden material, a retired unit leaves', async () => {
    const total = async (quien: Sesion) => (await json<{ num_results: number }>(quien, `/api/bdocente/?id_unidad=${ma.u2}`)).num_results;
    const id = await publicarMaterial(t, luis, 'Guía por ocultar', { unidad: ma.u2, oas: [ma.oa2a] });
    // Ana sees her own hidden one and Luis's; Luis, who has nothing hidden, his alone.
    expect(unidadDe(await cobertura(ana, `area=${ma.area}`), ma.u2)?.n_materiales).toBe(2);
    expect(unidadDe(await cobertura(luis, `area=${ma.area}`), ma.u2)?.n_materiales).toBe(1);
    expect(await total(luis)).toBe(1);

    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, id));
    expect(unidadDe(await cobertura(luis, `area=${ma.area}`), ma.u2)?.n_materiales).toBe(1);
    expect(await total(luis)).toBe(1);
    expect(unidadDe(await cobertura(ana, `area=${ma.area}`), ma.u2)?.n_materiales).toBe(1);
    expect(await total(ana)).toBe(1);

    await t.db.update(unidades).set({ vigente: false }).where(eq(unidades.id, ma.u2));
    try {
      expect(unidadDe(await cobertura(ana, `area=${ma.area}`), ma.u2)).toBeUndefined();
    } finally {
      await t.db.update(unidades).set({ vigente: true }).where(eq(unidades.id, ma.u2));
      await t.db.delete(materialesOas).where(eq(materialesOas.id_material, id));
      await t.db.delete(materiales).where(eq(materiales.id, id));
    }
    expect(unidadDe(await cobertura(luis, `area=${ma.area}`), ma.u2)?.n_materiales).toBe(0);
  });
});

describe('the query', () => {
  it("answers 400 'Debe seleccionar una area' without an area or with one that is no id", async () => {
    for (const consulta of ['', '?area=', '?area=abc', '?area=-1', '?area=0', '?area=1.5', '?nivel=07']) {
      const res = await get(luis, `/api/bdocente/cobertura/${consulta}`);
      expect(res.status, consulta).toBe(400);
      expect(await res.json()).toMatchObject({ detail: 'Debe seleccionar una area', errors: { area: ['Debe seleccionar una area'] } });
    }
  });

  it("answers 404 'No se encontró el área' for an area that does not exist", async () => {
    const res = await get(luis, '/api/bdocente/cobertura/?area=999999');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ detail: 'No se encontró el área' });
  });

  it('answers 401 signed out', async () => {
    const res = await t.call('GET', `/api/bdocente/cobertura/?area=${ma.area}`);
    expect(res.status).toBe(401);
  });
});

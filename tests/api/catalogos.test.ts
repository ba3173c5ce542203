import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tiposMaterial } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;
let token: string;
beforeAll(async () => {
  t = await createTestApi();
  const user = await t.createUser();
  token = (await t.login(user.email)).access;
});
afterAll(() => t.close());

const get = (path: string) => t.call('GET', path, { token });

describe('curriculum lookups', () => {
  it('requires a session', async () => {
    expect((await t.call('GET', '/api/curriculum_escolar/niveles/')).status).toBe(401);
    expect((await t.call('GET', '/api/colegios/')).status).toBe(401);
  });

  it('lists the 14 levels in school order with their ciclo', async () => {
    const niveles = await (await get('/api/curriculum_escolar/niveles/')).json();
    expect(niveles).toHaveLength(14);
    expect(niveles[0]).toEqual({ codigo: 'NT1', nombre: expect.any(String), ciclo: 'Educación Parvularia' });
    expect(niveles.map((n: { codigo: string }) => n.codigo)).toEqual([
      'NT1',
      'NT2',
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '1M',
      '2M',
      '3M',
      '4M',
    ]);
  });

  it('filters areas by level and levels by area', async () => {
    const areas = await (await get('/api/curriculum_escolar/areas/')).json();
    const matematica = areas.find((a: { codigo: string }) => a.codigo === 'MA');
    expect(matematica).toMatchObject({ nombre: 'Matemática' });
    const enPrimero = await (await get('/api/curriculum_escolar/areas/?nivel=01')).json();
    expect(enPrimero.some((a: { codigo: string }) => a.codigo === 'MA')).toBe(true);
    const nivelesMa = await (await get(`/api/curriculum_escolar/niveles/?area=${matematica.id}`)).json();
    expect(nivelesMa.map((n: { codigo: string }) => n.codigo)).toContain('01');
  });

  it('gives units of an area and level, and their OAs with official codes', async () => {
    const areas = await (await get('/api/curriculum_escolar/areas/')).json();
    const ma = areas.find((a: { codigo: string }) => a.codigo === 'MA');
    const unidades = await (await get(`/api/curriculum_escolar/unidades/?area=${ma.id}&nivel=01`)).json();
    expect(unidades.length).toBeGreaterThan(0);
    const oas = await (await get(`/api/curriculum_escolar/oas/?unidad=${unidades[0].id}`)).json();
    expect(oas.length).toBeGreaterThan(0);
    for (const oa of oas) {
      expect(oa.codigo).toMatch(/^MA01 OA \d{2}$/);
      expect(oa.unidad).toBe(unidades[0].id);
      expect(oa.descripcion.length).toBeGreaterThan(10);
    }
  });

  it('offers Educación Ciudadana and Filosofía in 3° and 4° medio only, and a material aligned to their OAs (decision 0083)', async () => {
    const areas: { id: number; codigo: string; nombre: string }[] = await (await get('/api/curriculum_escolar/areas/?nivel=3M')).json();
    const ec = areas.find((a) => a.codigo === 'EC');
    expect(ec?.nombre).toBe('Educación Ciudadana');
    expect(areas.find((a) => a.codigo === 'FI')?.nombre).toBe('Filosofía');
    const niveles = await (await get(`/api/curriculum_escolar/niveles/?area=${ec?.id}`)).json();
    expect(niveles.map((n: { codigo: string }) => n.codigo)).toEqual(['3M', '4M']);
    const enSeptimo: { codigo: string }[] = await (await get('/api/curriculum_escolar/areas/?nivel=07')).json();
    expect(enSeptimo.some((a) => a.codigo === 'EC' || a.codigo === 'FI')).toBe(false);

    const [unidad] = await (await get(`/api/curriculum_escolar/unidades/?area=${ec?.id}&nivel=3M`)).json();
    expect(unidad.nombre).toBe('Objetivos de Educación Ciudadana 3° medio');
    const oas: { id: number; codigo: string }[] = await (await get(`/api/curriculum_escolar/oas/?unidad=${unidad.id}`)).json();
    expect(oas.map((o) => o.codigo)).toEqual(Array.from({ length: 8 }, (_, i) => `FG-ECIU-3M-OAC-0${i + 1}`));
    const [tipo] = await t.db.select().from(tiposMaterial);
    const campos = {
      id_area: String(ec?.id),
      id_nivel: '3M',
      id_unidad: String(unidad.id),
      oas: [String(oas[0]?.id), String(oas[7]?.id)],
      titulo: 'Deliberación en el aula',
      descripcion: 'Para tercero medio',
      tipo_material_docente: String(tipo?.id),
    };
    const creado = await t.call('POST', '/api/bdocente/', { token, body: formData(campos, { data: pdf(1), name: 'guia.pdf' }) });
    expect(creado.status).toBe(201);
    const material = await creado.json();
    expect(material.oas.map((o: { codigo: string }) => o.codigo)).toEqual(['FG-ECIU-3M-OAC-01', 'FG-ECIU-3M-OAC-08']);
  });

  it('offers a module of either level in 3° and 4° medio and a núcleo in NT1 and NT2, aligned like any unit (decision 0084)', async () => {
    const areas: { id: number; codigo: string }[] = await (await get('/api/curriculum_escolar/areas/')).json();
    const id = (codigo: string) => areas.find((a) => a.codigo === codigo)?.id;
    const unidadesDe = async (area: string, nivel: string): Promise<{ id: number; nombre: string }[]> =>
      (await get(`/api/curriculum_escolar/unidades/?area=${id(area)}&nivel=${nivel}`)).json();
    const [en3, en4] = [await unidadesDe('EF', '3M'), await unidadesDe('EF', '4M')];
    expect(en4.map((u) => u.nombre)).toEqual(['Educación Física y Salud 1', 'Educación Física y Salud 2']);
    expect(en4).toEqual(en3);
    const oas: { id: number; codigo: string }[] = await (await get(`/api/curriculum_escolar/oas/?unidad=${en4[0]?.id}`)).json();
    expect(oas.map((o) => o.codigo)).toEqual(Array.from({ length: 5 }, (_, i) => `FG-EFS1-3y4-OAC-0${i + 1}`));
    const [nt1, nt2] = [await unidadesDe('LV', 'NT1'), await unidadesDe('LV', 'NT2')];
    expect(nt2).toEqual(nt1);
    expect(nt2.map((u) => u.nombre)).toEqual(['Objetivos de Lenguaje Verbal Primer Nivel de Transición y Segundo Nivel de Transición']);
    const nucleo: { codigo: string }[] = await (await get(`/api/curriculum_escolar/oas/?unidad=${nt2[0]?.id}`)).json();
    expect(nucleo.map((o) => o.codigo)).toEqual(Array.from({ length: 10 }, (_, i) => `OA ${String(i + 1).padStart(2, '0')} LV NT`));

    const [tipo] = await t.db.select().from(tiposMaterial);
    const subir = (campos: Record<string, string | string[]>) =>
      t.call('POST', '/api/bdocente/', {
        token,
        body: formData(
          { titulo: 'Circuito de habilidades', descripcion: 'Para cuarto medio', tipo_material_docente: String(tipo?.id), ...campos },
          { data: pdf(1), name: 'guia.pdf' },
        ),
      });
    const creado = await subir({ id_area: String(id('EF')), id_nivel: '4M', id_unidad: String(en4[0]?.id), oas: [String(oas[0]?.id)] });
    expect(creado.status).toBe(201);
    expect((await creado.json()).oas.map((o: { codigo: string }) => o.codigo)).toEqual(['FG-EFS1-3y4-OAC-01']);
    // The map of Educación Física in 4° medio shows the module with the material.
    const mapa = await (await get(`/api/bdocente/cobertura/?area=${id('EF')}&nivel=4M`)).json();
    const modulo = mapa.niveles[0].unidades.find((u: { id: number }) => u.id === en4[0]?.id);
    expect(modulo.n_materiales).toBe(1);
    expect(modulo.oas[0]).toMatchObject({ codigo: 'FG-EFS1-3y4-OAC-01', n_materiales: 1 });
    // A unit of one level is still only of it: Educación Ciudadana 3° medio's in 4° medio is refused, and nothing is created.
    const [ec3] = await unidadesDe('EC', '3M');
    const [ec4] = await unidadesDe('EC', '4M');
    const [oaEc3] = await (await get(`/api/curriculum_escolar/oas/?unidad=${ec3?.id}`)).json();
    const ajena = await subir({ id_area: String(id('EC')), id_nivel: '4M', id_unidad: String(ec3?.id), oas: [String(oaEc3.id)] });
    expect(ajena.status).toBe(400);
    expect((await ajena.json()).errors.id_unidad).toEqual(['Debe ingresar una unidad']);
    const oaAjeno = await subir({ id_area: String(id('EC')), id_nivel: '4M', id_unidad: String(ec4?.id), oas: [String(oaEc3.id)] });
    expect((await oaAjeno.json()).errors.oas).toEqual(['Los OA elegidos no corresponden a la asignatura y el nivel']);
  });

  it('rejects missing or malformed filters with 400', async () => {
    expect((await get('/api/curriculum_escolar/unidades/?area=1')).status).toBe(400);
    expect((await get('/api/curriculum_escolar/oas/?unidad=abc')).status).toBe(400);
    expect((await get('/api/curriculum_escolar/niveles/?area=-3')).status).toBe(400);
  });

  it('lists methodologies, material types and schools', async () => {
    const metodologias = await (await get('/api/metodologias/')).json();
    expect(metodologias.map((m: { nombre: string }) => m.nombre)).toEqual(
      expect.arrayContaining(['Aprendizaje Basado en Proyectos', 'Aula Invertida', 'Gamificación']),
    );
    const tipos = await (await get('/api/bdocente/tipo/')).json();
    expect(tipos.map((m: { nombre: string }) => m.nombre)).toEqual(
      expect.arrayContaining(['Guía', 'Presentación', 'Evaluación', 'Planificación', 'Rúbrica']),
    );
    expect((await (await get('/api/colegios/')).json()).length).toBeGreaterThan(3);
  });
});

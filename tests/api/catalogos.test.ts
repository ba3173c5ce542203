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

/**
 * The curriculum the network keeps (issue 30 items 4 and 5): the admin calls under
 * /api/admin/curriculo/, retired units and OAs (out of the lookups, kept on their materials), the
 * file's export, example and import with its preview, the bad files that change nothing, and the
 * one transaction of an import. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/lib/server/cli/csv.server.ts';
import { areas, areasNiveles, materialesOas, oas, registroAdmin, tiposMaterial, unidades } from '../../src/lib/server/db/schema.server.ts';
import { curriculo } from '../../src/lib/server/db/seed/curriculo.ts';
import * as data from '../../src/lib/server/db/seed/curriculum-data.ts';
import { seedCatalogos } from '../../src/lib/server/db/seed.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { type Sesion, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;
let admin: Sesion;
let docente: Sesion;
beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true });
  docente = await t.session();
});
afterAll(() => t.close());

const json = async (r: Response) => {
  const cuerpo = await r.json();
  return cuerpo;
};
const get = (ruta: string, token = admin.token) => t.call('GET', ruta, { token });
const put = (ruta: string, cuerpo: unknown, token = admin.token) => t.call('PUT', ruta, { token, json: cuerpo });
const importar = (datos: string | Buffer, confirmar: 'true' | 'false', name = 'curriculo.csv', token = admin.token) =>
  t.call('POST', '/api/admin/curriculo/importar/', { token, body: formData({ confirmar }, { data: datos, name, type: 'text/csv' }) });
const exportar = async (consulta: string) => {
  const r = await get(`/api/admin/curriculo/exportar/?${consulta}`);
  expect(r.status).toBe(200);
  return r;
};
const ultimaAccion = async (accion: string) =>
  (await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, accion)).orderBy(asc(registroAdmin.id))).at(-1);
const areaId = async (codigo: string) => (await t.db.select().from(areas).where(eq(areas.codigo, codigo)))[0]?.id ?? 0;
const oasDe = (unidad: number) => t.db.select().from(oas).where(eq(oas.unidad, unidad)).orderBy(asc(oas.orden), asc(oas.codigo));
const CABECERA = 'area,nivel,unidad,unidad_orden,oa,descripcion,oa_orden,vigente,fuente';
/** The export's header: the import's columns and the unit's other levels (decision 0084). */
const CABECERA_EXPORTADA = `${CABECERA},otros_niveles`;

describe('only admins', () => {
  it('a teacher gets 403 and no token 401 from every call', async () => {
    const llamadas: [string, string, Record<string, unknown>][] = [
      ['GET', '/api/admin/curriculo/', {}],
      ['GET', '/api/admin/curriculo/MA/07/', {}],
      ['POST', '/api/admin/curriculo/unidades/', { json: { area: 'MA', nivel: '07', nombre: 'X' } }],
      ['PUT', '/api/admin/curriculo/unidades/1/', { json: { nombre: 'X' } }],
      ['DELETE', '/api/admin/curriculo/unidades/1/', {}],
      ['PUT', '/api/admin/curriculo/oas/1/', { json: { vigente: false } }],
      ['GET', '/api/admin/curriculo/exportar/', {}],
      ['GET', '/api/admin/curriculo/ejemplo/', {}],
      ['POST', '/api/admin/curriculo/importar/', { body: formData({ confirmar: 'false' }, { data: `${CABECERA}\n`, name: 'a.csv' }) }],
    ];
    for (const [method, path, options] of llamadas) {
      const prohibido = await t.call(method, path, { ...options, token: docente.token });
      expect(prohibido.status, `${method} ${path}`).toBe(403);
      expect((await t.call(method, path, options)).status, `${method} ${path}`).toBe(401);
    }
    // The downloads are plain links in the console: the admin's session cookie counts, a teacher's does not.
    const cookie = (token: string) => ({ headers: { cookie: `ed_access=${token}` } });
    expect((await t.call('GET', '/api/admin/curriculo/ejemplo/', cookie(admin.token))).status).toBe(200);
    expect((await t.call('GET', '/api/admin/curriculo/ejemplo/', cookie(docente.token))).status).toBe(403);
  });
});

describe('reading the curriculum', () => {
  it('lists every taught pair with its counts, and finds OAs by code or words, case and accents aside', async () => {
    const r = await json(await get('/api/admin/curriculo/'));
    const ma07 = r.pares.find(
      (p: { area: { codigo: string }; nivel: { codigo: string } }) => p.area.codigo === 'MA' && p.nivel.codigo === '07',
    );
    const total = (
      await t.db
        .select()
        .from(unidades)
        .where(eq(unidades.id_area, await areaId('MA')))
    ).length;
    expect(ma07.unidades).toBeGreaterThan(0);
    expect(ma07.unidades).toBeLessThanOrEqual(total);
    expect(ma07.oas_vigentes).toBeGreaterThan(0);
    expect(r.oas).toEqual([]);
    // Every taught pair is listed once, whether or not it has units yet (a unit can be created there).
    expect(r.pares).toHaveLength((await t.db.select().from(areasNiveles)).length);
    // A module of either level counts in both (decision 0084): Educación Física y Salud 1 and 2, five OAs each.
    const ef = (nivel: string) =>
      r.pares.find((p: { area: { codigo: string }; nivel: { codigo: string } }) => p.area.codigo === 'EF' && p.nivel.codigo === nivel);
    for (const nivel of ['3M', '4M']) expect(ef(nivel), nivel).toMatchObject({ unidades: 2, oas_vigentes: 10 });

    const soloMa = await json(await get('/api/admin/curriculo/?area=MA&nivel=07'));
    expect(soloMa.pares).toHaveLength(1);

    const porCodigo = await json(await get('/api/admin/curriculo/?q=ma07%20oa%2001'));
    expect(porCodigo.oas.map((o: { codigo: string }) => o.codigo)).toContain('MA07 OA 01');
    expect(porCodigo.oas[0]).toMatchObject({ area: { codigo: 'MA' }, nivel: { codigo: '07' }, unidad: { vigente: true } });

    const [conTilde] = await t.db.select().from(oas).where(sql`${oas.descripcion} ~ '[áéíóú]'`).limit(1);
    const palabra = conTilde?.descripcion.split(/\s+/).find((w) => /[áéíóú]/.test(w)) ?? '';
    const sinTilde = palabra
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}]/gu, '')
      .toUpperCase();
    const porPalabra = await json(await get(`/api/admin/curriculo/?q=${encodeURIComponent(sinTilde)}`));
    expect(porPalabra.oas.length).toBeGreaterThan(0);
    expect(porPalabra.oas.length).toBeLessThanOrEqual(50);
  });

  it("answers a pair's units and OAs in order with their materials, and 404 for what is not there", async () => {
    const r = await json(await get('/api/admin/curriculo/MA/07/'));
    expect(r.area.codigo).toBe('MA');
    expect(r.unidades.length).toBeGreaterThan(0);
    expect(r.unidades.map((u: { orden: number }) => u.orden)).toEqual(r.unidades.map((_: unknown, i: number) => i + 1));
    expect(r.unidades[0].oas[0]).toMatchObject({ orden: 1, vigente: true, materiales: 0 });
    expect(r.unidades[0].niveles).toEqual(['7° básico']);
    // A module of either level is in the tree of both, saying so (decision 0084).
    for (const nivel of ['3M', '4M']) {
      const ef = await json(await get(`/api/admin/curriculo/EF/${nivel}/`));
      expect(ef.unidades.map((u: { nombre: string; niveles: string[] }) => [u.nombre, u.niveles])).toEqual([
        ['Educación Física y Salud 1', ['3° medio', '4° medio']],
        ['Educación Física y Salud 2', ['3° medio', '4° medio']],
      ]);
    }
    const porId = await json(await get(`/api/admin/curriculo/${await areaId('MA')}/07/`));
    expect(porId.unidades.map((u: { id: number }) => u.id)).toEqual(r.unidades.map((u: { id: number }) => u.id));
    expect((await json(await get('/api/admin/curriculo/ZZ/07/'))).detail).toBe('No se encontró la asignatura');
    expect((await json(await get('/api/admin/curriculo/MA/9Z/'))).detail).toBe('No se encontró el nivel');
    expect((await json(await get('/api/admin/curriculo/IN/01/'))).detail).toBe('La asignatura no se enseña en ese nivel');
  });
});

describe('units', () => {
  it('are created last with the next code, renamed, moved, retired, restored and deleted when empty', async () => {
    const antes = await json(await get('/api/admin/curriculo/MA/07/'));
    const numeros = antes.unidades.map((u: { codigo: string }) => Number(/ U(\d+)$/.exec(u.codigo)?.[1] ?? 0));
    const creada = await t.call('POST', '/api/admin/curriculo/unidades/', {
      token: admin.token,
      json: { area: 'MA', nivel: '07', nombre: 'Programa propio: finanzas' },
    });
    expect(creada.status).toBe(201);
    const u = await json(creada);
    expect(u).toMatchObject({ codigo: `MA07 U${Math.max(0, ...numeros) + 1}`, orden: antes.unidades.length + 1, vigente: true, oas: [] });
    expect((await ultimaAccion('crear_unidad'))?.detalle).toContain('Programa propio: finanzas');

    const repetida = await t.call('POST', '/api/admin/curriculo/unidades/', {
      token: admin.token,
      json: { area: await areaId('MA'), nivel: '07', nombre: 'programa PROPIO: finanzas' },
    });
    expect(repetida.status).toBe(400);
    expect((await json(repetida)).detail).toBe('Ya existe una unidad con ese nombre en la asignatura y el nivel');
    const noEnsenada = await t.call('POST', '/api/admin/curriculo/unidades/', {
      token: admin.token,
      json: { area: 'IN', nivel: '01', nombre: 'X' },
    });
    expect((await json(noEnsenada)).detail).toBe('La asignatura no se enseña en ese nivel');

    const renombrada = await json(await put(`/api/admin/curriculo/unidades/${u.id}/`, { nombre: 'Educación financiera' }));
    expect(renombrada.nombre).toBe('Educación financiera');
    const primera = await json(await put(`/api/admin/curriculo/unidades/${u.id}/`, { orden: 1 }));
    expect(primera.orden).toBe(1);
    const despues = await json(await get('/api/admin/curriculo/MA/07/'));
    expect(despues.unidades.map((x: { id: number }) => x.id)).toEqual([u.id, ...antes.unidades.map((x: { id: number }) => x.id)]);
    expect(despues.unidades.map((x: { orden: number }) => x.orden)).toEqual(despues.unidades.map((_: unknown, i: number) => i + 1));
    expect((await ultimaAccion('ordenar_unidad'))?.detalle).toContain('a la 1');

    const lookup = async () =>
      (await json(await get(`/api/curriculum_escolar/unidades/?area=${await areaId('MA')}&nivel=07`, docente.token))).map(
        (x: { id: number }) => x.id,
      );
    expect(await lookup()).toContain(u.id);
    expect((await json(await put(`/api/admin/curriculo/unidades/${u.id}/`, { vigente: false }))).vigente).toBe(false);
    expect(await lookup()).not.toContain(u.id);
    expect((await ultimaAccion('retirar_unidad'))?.detalle).toBe(`Retiró la unidad «Educación financiera» (${u.codigo})`);
    await put(`/api/admin/curriculo/unidades/${u.id}/`, { vigente: true });
    expect(await lookup()).toContain(u.id);
    expect((await put(`/api/admin/curriculo/unidades/${u.id}/`, {})).status).toBe(400);
    expect((await put('/api/admin/curriculo/unidades/999999/', { nombre: 'X' })).status).toBe(404);

    const conOas = antes.unidades[0].id;
    const ocupada = await t.call('DELETE', `/api/admin/curriculo/unidades/${conOas}/`, { token: admin.token });
    expect(ocupada.status).toBe(409);
    expect((await json(ocupada)).detail).toBe('La unidad tiene OA o materiales asociados: retírela en lugar de eliminarla');
    expect((await t.call('DELETE', `/api/admin/curriculo/unidades/${u.id}/`, { token: admin.token })).status).toBe(204);
    const final = await json(await get('/api/admin/curriculo/MA/07/'));
    expect(final.unidades.map((x: { id: number }) => x.id)).toEqual(antes.unidades.map((x: { id: number }) => x.id));
    expect(final.unidades.map((x: { orden: number }) => x.orden)).toEqual(final.unidades.map((_: unknown, i: number) => i + 1));
    expect((await ultimaAccion('eliminar_unidad'))?.detalle).toContain('Educación financiera');
  });
});

describe('OAs', () => {
  it('move within their pair, reorder, take a corrected statement; another pair is a 400', async () => {
    const par = await json(await get('/api/admin/curriculo/MA/07/'));
    const [u1, u2] = par.unidades;
    const oa = u1.oas[0];
    const movido = await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: u2.id }));
    expect(movido).toMatchObject({ unidad: u2.id, orden: u2.oas.length + 1 });
    expect((await oasDe(u1.id)).map((o) => o.orden)).toEqual(u1.oas.slice(1).map((_: unknown, i: number) => i + 1));
    const alPrincipio = await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { orden: 1 }));
    expect(alPrincipio.orden).toBe(1);
    expect((await oasDe(u2.id)).map((o) => o.id)).toEqual([oa.id, ...u2.oas.map((o: { id: number }) => o.id)]);
    const devuelto = await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: u1.id, orden: 1 }));
    expect(devuelto).toMatchObject({ unidad: u1.id, orden: 1 });
    expect((await ultimaAccion('mover_oa'))?.detalle).toContain(oa.codigo);

    const corregido = await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { descripcion: `${oa.descripcion} ` }));
    expect(corregido.descripcion).toBe(oa.descripcion);
    const texto = `${oa.descripcion} (corregido)`;
    expect((await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { descripcion: texto }))).descripcion).toBe(texto);
    expect((await ultimaAccion('editar_oa'))?.detalle).toContain(oa.codigo);
    await put(`/api/admin/curriculo/oas/${oa.id}/`, { descripcion: oa.descripcion });

    const otra = await unidadDe(t, 'CN', '07');
    const ajena = await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: otra.id });
    expect(ajena.status).toBe(400);
    expect((await json(ajena)).detail).toBe('La unidad debe ser de la misma asignatura y nivel del OA');
    expect((await put(`/api/admin/curriculo/oas/${oa.id}/`, { descripcion: '' })).status).toBe(400);
    expect((await put(`/api/admin/curriculo/oas/${oa.id}/`, { descripcion: 'x'.repeat(3001) })).status).toBe(400);
    expect((await put('/api/admin/curriculo/oas/999999/', { vigente: false })).status).toBe(404);
  });

  it('of a shared module move to a unit taught in all of its levels, not to one of only one of them (decision 0084)', async () => {
    const ef = await json(await get('/api/admin/curriculo/EF/4M/'));
    const [efs1, efs2] = ef.unidades;
    const oa = efs1.oas[0];
    // The 4M tree's own unit: the OA would leave 3° medio, where materials may be aligned to it.
    const creada = await t.call('POST', '/api/admin/curriculo/unidades/', {
      token: admin.token,
      json: { area: 'EF', nivel: '4M', nombre: 'Unidad de la red de 4° medio' },
    });
    expect(creada.status).toBe(201);
    const solo4M = await json(creada);
    const refusada = await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: solo4M.id });
    expect(refusada.status).toBe(400);
    expect(await json(refusada)).toMatchObject({
      detail: 'La unidad de destino no se imparte en 3° medio, como la del OA',
      errors: { unidad: ['La unidad de destino no se imparte en 3° medio, como la del OA'] },
    });
    expect((await oasDe(efs1.id)).map((o) => o.id)).toEqual(efs1.oas.map((o: { id: number }) => o.id));
    // Between the two modules, both of 3° and 4° medio, it moves, from either level's tree.
    expect(await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: efs2.id }))).toMatchObject({ unidad: efs2.id });
    expect(await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: efs1.id, orden: 1 }))).toMatchObject({
      unidad: efs1.id,
      orden: 1,
    });
    // Another area's shared module is still another pair's.
    const hi = await json(await get('/api/admin/curriculo/HI/4M/'));
    expect((await json(await put(`/api/admin/curriculo/oas/${oa.id}/`, { unidad: hi.unidades[0].id }))).detail).toBe(
      'La unidad debe ser de la misma asignatura y nivel del OA',
    );
    expect((await t.call('DELETE', `/api/admin/curriculo/unidades/${solo4M.id}/`, { token: admin.token })).status).toBe(204);
  });

  it('once retired, leave the lookups and new materials, and stay on the materials that have them, marked', async () => {
    const par = await json(await get('/api/admin/curriculo/MA/07/'));
    const unidad = par.unidades[0];
    const [retirado, vigente] = unidad.oas;
    const [tipo] = await t.db.select().from(tiposMaterial);
    const campos = (oasElegidos: number[]) => ({
      id_area: String(par.area.id),
      id_nivel: '07',
      id_unidad: String(unidad.id),
      oas: oasElegidos.map(String),
      titulo: 'Guía de potencias',
      descripcion: 'Ejercicios',
      tipo_material_docente: String(tipo?.id),
    });
    const subida = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData(campos([retirado.id, vigente.id]), { data: pdf(1), name: 'guia.pdf' }),
    });
    expect(subida.status).toBe(201);
    const material = await json(subida);

    expect((await json(await put(`/api/admin/curriculo/oas/${retirado.id}/`, { vigente: false }))).vigente).toBe(false);
    expect((await ultimaAccion('retirar_oa'))?.detalle).toBe(`Retiró el OA ${retirado.codigo}`);

    const lookup = (await json(await get(`/api/curriculum_escolar/oas/?unidad=${unidad.id}`, docente.token))).map(
      (o: { id: number }) => o.id,
    );
    expect(lookup).not.toContain(retirado.id);
    expect(lookup).toContain(vigente.id);

    const detalle = await json(await get(`/api/bdocente/${material.id}/`, docente.token));
    const marcas = Object.fromEntries(detalle.oas.map((o: { id: number; vigente: boolean }) => [o.id, o.vigente]));
    expect(marcas).toEqual({ [retirado.id]: false, [vigente.id]: true });
    const lista = await json(await get(`/api/bdocente/?oa=${retirado.id}`, docente.token));
    expect(lista.material[0].oas.find((o: { id: number }) => o.id === retirado.id).vigente).toBe(false);

    const nueva = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData(campos([retirado.id]), { data: pdf(1), name: 'otra.pdf' }),
    });
    expect(nueva.status).toBe(400);
    expect((await json(nueva)).detail).toBe(`El OA ${retirado.codigo} ya no está vigente`);

    // Editing the material that has it keeps it.
    const edicion = await t.call('PUT', '/api/bdocente/', {
      token: docente.token,
      body: formData({ ...campos([retirado.id, vigente.id]), titulo: 'Guía editada', id: String(material.id) }),
    });
    expect(edicion.status).toBe(204);
    const vinculos = await t.db.select().from(materialesOas).where(eq(materialesOas.id_material, material.id));
    expect(vinculos.map((v) => v.id_oa).sort()).toEqual([retirado.id, vigente.id].sort());

    // A retired unit: out of new materials too, and its OAs out of the lookups.
    await put(`/api/admin/curriculo/unidades/${unidad.id}/`, { vigente: false });
    const enRetirada = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData(campos([vigente.id]), { data: pdf(1), name: 'otra.pdf' }),
    });
    expect((await json(enRetirada)).detail).toBe('La unidad ya no está vigente');
    expect(await json(await get(`/api/curriculum_escolar/oas/?unidad=${unidad.id}`, docente.token))).toEqual([]);
    const arbol = await json(await get('/api/admin/curriculo/MA/07/'));
    expect(arbol.unidades[0]).toMatchObject({ vigente: false, materiales: 1 });
    expect(arbol.unidades[0].oas[0]).toMatchObject({ id: retirado.id, vigente: false, materiales: 1 });
    await put(`/api/admin/curriculo/unidades/${unidad.id}/`, { vigente: true });
    await put(`/api/admin/curriculo/oas/${retirado.id}/`, { vigente: true });
    expect((await ultimaAccion('restaurar_oa'))?.detalle).toBe(`Restauró el OA ${retirado.codigo}`);
  });
});

describe('the curriculum file', () => {
  it('exports CSV and JSON in the import format, and offers an example', async () => {
    const csv = await exportar('formato=csv&area=MA&nivel=07');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('curriculo-MA-07.csv');
    const bytes = Buffer.from(await csv.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const texto = bytes.toString('utf8').slice(1);
    expect(texto.split('\r\n')[0]).toBe(CABECERA_EXPORTADA);
    const filas = await json(await exportar('formato=json&area=MA&nivel=07'));
    expect(filas.length).toBe(texto.trim().split('\r\n').length - 1);
    expect(filas[0]).toMatchObject({ area: 'MA', nivel: '07', unidad_orden: 1, oa_orden: 1, vigente: true });
    expect(new Set(filas.map((f: { nivel: string }) => f.nivel))).toEqual(new Set(['07']));

    const ejemplo = await get('/api/admin/curriculo/ejemplo/?formato=csv');
    expect(ejemplo.headers.get('content-disposition')).toContain('curriculo-ejemplo.csv');
    expect((await ejemplo.text()).split('\r\n')[0]).toBe(CABECERA_EXPORTADA);
    const ejemploJson = await json(await get('/api/admin/curriculo/ejemplo/?formato=json'));
    expect(ejemploJson.some((f: { vigente: boolean }) => !f.vigente)).toBe(true);
    expect((await get('/api/admin/curriculo/exportar/?formato=xml')).status).toBe(400);
  });

  it('round trip: export, edit, preview (nothing written), apply in one go, then the same file changes nothing', async () => {
    const [cabecera, primera, segunda, ...resto] = parseCsv(await (await exportar('area=MA&nivel=08')).text()).map((f) => f.values);
    if (!cabecera || !primera || !segunda) throw new Error('MA 08 has fewer than two OAs');
    const codigoCambiado = primera[4] ?? '';
    const codigoRetirado = segunda[4] ?? '';
    const corregida = [...primera.slice(0, 5), 'Enunciado corregido, con "comillas" y coma', ...primera.slice(6)];
    const nueva = [
      'MA',
      '08',
      'Unidad nueva de la red',
      '',
      'MA08 OA 99',
      'Un OA agregado por la red.',
      '',
      'sí',
      'https://example.cl/fuente',
    ];
    const archivo = escribir([cabecera, corregida, ...resto, nueva]);

    const antes = await t.db.select().from(oas).where(eq(oas.codigo, codigoCambiado));
    const vista = await importar(archivo, 'false');
    expect(vista.status).toBe(200);
    const previa = await json(vista);
    expect(previa).toMatchObject({ confirmado: false, errores: [], pares: [{ area: 'MA', nivel: '08' }] });
    expect(previa.retirados).toBe(1);
    expect(previa.cambios).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tipo: 'agregado', objeto: 'oa', codigo: 'MA08 OA 99' }),
        expect.objectContaining({ tipo: 'agregado', objeto: 'unidad' }),
        expect.objectContaining({ tipo: 'retirado', objeto: 'oa', codigo: codigoRetirado, despues: null }),
        expect.objectContaining({ tipo: 'cambiado', objeto: 'oa', codigo: codigoCambiado }),
      ]),
    );
    expect(previa.agregados).toBe(2);
    expect(await t.db.select().from(oas).where(eq(oas.codigo, 'MA08 OA 99'))).toEqual([]);
    expect(await t.db.select().from(oas).where(eq(oas.codigo, codigoCambiado))).toEqual(antes);

    const aplicada = await json(await importar(archivo, 'true'));
    expect(aplicada).toMatchObject({ confirmado: true, agregados: 2, retirados: 1, cambiados: previa.cambiados });
    const [agregado] = await t.db.select().from(oas).where(eq(oas.codigo, 'MA08 OA 99'));
    expect(agregado).toMatchObject({ descripcion: 'Un OA agregado por la red.', vigente: true, fuente: 'https://example.cl/fuente' });
    const [unidadNueva] = await t.db
      .select()
      .from(unidades)
      .where(eq(unidades.id, agregado?.unidad ?? 0));
    expect(unidadNueva?.nombre).toBe('Unidad nueva de la red');
    expect(unidadNueva?.codigo).toMatch(/^MA08 U\d+$/);
    expect((await t.db.select().from(oas).where(eq(oas.codigo, codigoCambiado)))[0]?.descripcion).toBe(
      'Enunciado corregido, con "comillas" y coma',
    );
    expect((await t.db.select().from(oas).where(eq(oas.codigo, codigoRetirado)))[0]?.vigente).toBe(false);
    const registro = await ultimaAccion('importar_curriculo');
    expect(registro?.detalle).toContain('Importó el currículum de 1 par (MA 08): 2 agregados');
    expect(registro?.detalle).toContain('MA08 OA 99');

    const otraVez = await json(await importar(archivo, 'false'));
    expect(otraVez).toMatchObject({ agregados: 0, cambiados: 0, retirados: 0, cambios: [] });

    // The new export reads back as no change, in CSV and in JSON.
    const exportada = await (await exportar('area=MA&nivel=08')).text();
    expect(await json(await importar(exportada, 'false'))).toMatchObject({ agregados: 0, cambiados: 0, retirados: 0 });
    const exportadaJson = await (await exportar('formato=json&area=MA&nivel=08')).text();
    const desdeJson = await json(await importar(exportadaJson, 'false', 'curriculo.json'));
    expect(desdeJson).toMatchObject({ agregados: 0, cambiados: 0, retirados: 0, errores: [] });
    expect(desdeJson.sin_cambios).toBeGreaterThan(0);
  });

  it('reads a Latin-1 (Windows-1252) file and semicolons as Excel in es-CL saves them', async () => {
    const texto = `area;nivel;unidad;oa;descripcion\r\nMA;08;Unidad de educación “financiera”;MA08 OA 98;Análisis de situaciones cotidianas – ñandú\r\n`;
    const r = await json(await importar(Buffer.from(windows1252(texto)), 'false'));
    expect(r.errores).toEqual([]);
    const agregado = r.cambios.find((c: { codigo: string }) => c.codigo === 'MA08 OA 98');
    expect(agregado.despues).toContain('Análisis de situaciones cotidianas – ñandú');
    expect(r.cambios.find((c: { objeto: string; tipo: string }) => c.objeto === 'unidad' && c.tipo === 'agregado').despues).toContain(
      'Unidad de educación “financiera”',
    );
  });
});

/** Rows as a CSV, every cell quoted, as a spreadsheet may save them. */
const escribir = (filas: string[][]) => filas.map((f) => f.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n');

/** Text as Windows-1252 bytes (the characters these tests use). */
function windows1252(texto: string): Uint8Array {
  const especiales: Record<string, number> = { '“': 0x93, '”': 0x94, '–': 0x96 };
  return Uint8Array.from([...texto].map((c) => especiales[c] ?? c.charCodeAt(0)));
}

describe('units taught in two levels in the file (decision 0084)', () => {
  const unidadesDe = async (area: string, nivel: string) =>
    (await json(await get(`/api/admin/curriculo/${area}/${nivel}/`))).unidades as { nombre: string; niveles: string[] }[];
  const nombres = async (area: string, nivel: string) => (await unidadesDe(area, nivel)).map((u) => u.nombre);

  it('exports a shipped module with its other level, and round-trips it unchanged', async () => {
    const filas = await json(await exportar('formato=json&area=EF&nivel=3M'));
    expect(filas.map((f: { otros_niveles: string }) => f.otros_niveles)).toEqual(Array(10).fill('4M'));
    // Exported from 4° medio, the module is not listed: it is 3° medio's, as a file of 4° medio neither lists nor retires it.
    expect(await json(await exportar('formato=json&area=EF&nivel=4M'))).toEqual([]);
    const csv = await (await exportar('formato=csv&area=EF&nivel=3M')).text();
    const vista = await json(await importar(csv, 'false'));
    expect(vista).toMatchObject({ agregados: 0, cambiados: 0, retirados: 0, errores: [] });
  });

  it('makes a unit of the network taught in another level too, and back, and a file without the column keeps it', async () => {
    const CSV = (otros: string | null) =>
      [
        otros === null ? CABECERA : CABECERA_EXPORTADA,
        ...['Comprensión auditiva', 'Comprensión lectora'].map(
          (t, i) =>
            `IN,3M,Unidad de la red para 3° y 4° medio,1,IN3M OA 9${i},Enunciado de prueba: ${t}.,${i + 1},sí,${otros === null ? '' : `,${otros}`}`,
        ),
      ].join('\n');
    const vista = await json(await importar(CSV('4M'), 'false'));
    expect(vista.errores).toEqual([]);
    const agregada = vista.cambios.find((c: { objeto: string; tipo: string }) => c.objeto === 'unidad' && c.tipo === 'agregado');
    expect(agregada.despues).toContain('también en 4° medio');
    expect(await nombres('IN', '4M')).not.toContain('Unidad de la red para 3° y 4° medio');
    expect((await importar(CSV('4M'), 'true')).status).toBe(200);
    const en4 = (await unidadesDe('IN', '4M')).find((u) => u.nombre === 'Unidad de la red para 3° y 4° medio');
    expect(en4?.niveles).toEqual(['3° medio', '4° medio']);

    // Without the column the other level stays; an empty cell takes it away.
    expect(await json(await importar(CSV(null), 'true'))).toMatchObject({ cambiados: 0, retirados: 0 });
    expect(await nombres('IN', '4M')).toContain('Unidad de la red para 3° y 4° medio');
    const quitar = await json(await importar(CSV(''), 'true'));
    expect(quitar.cambios.find((c: { objeto: string }) => c.objeto === 'unidad')).toMatchObject({ tipo: 'cambiado' });
    expect(await nombres('IN', '4M')).not.toContain('Unidad de la red para 3° y 4° medio');
    expect((await unidadesDe('IN', '3M')).find((u) => u.nombre === 'Unidad de la red para 3° y 4° medio')?.niveles).toEqual(['3° medio']);
  });

  it('refuses an unknown, repeated, untaught or contradictory other level, line by line, and applies nothing', async () => {
    const fila = (oa: string, otros: string) => `IN,3M,Unidad con errores,1,${oa},Enunciado de prueba.,,sí,,${otros}`;
    const archivo = [
      CABECERA_EXPORTADA,
      fila('IN3M OA 81', 'ZZ'),
      fila('IN3M OA 82', '3M'),
      fila('IN3M OA 83', 'NT1'),
      fila('IN3M OA 84', '4M'),
      fila('IN3M OA 85', ''),
      fila('IN3M OA 86', 'x'.repeat(101)),
    ].join('\n');
    expect((await importar(archivo, 'true')).status).toBe(400);
    const r = await json(await importar(archivo, 'false'));
    expect(r.errores).toEqual([
      { linea: 2, mensaje: 'El nivel «ZZ» de otros_niveles no existe: usa su código (por ejemplo 4M)' },
      { linea: 3, mensaje: 'otros_niveles repite el nivel de la fila (3° medio)' },
      { linea: 4, mensaje: 'Inglés no se enseña en Primer Nivel de Transición (otros_niveles)' },
      { linea: 6, mensaje: 'La unidad «Unidad con errores» tiene otros niveles (otros_niveles) en la línea 5' },
      { linea: 7, mensaje: 'La columna otros_niveles tiene más de 100 caracteres: escribe solo los códigos (4M)' },
    ]);
    expect(await nombres('IN', '3M')).not.toContain('Unidad con errores');
  });
});

describe('bad files change nothing', () => {
  const fila = (oa: string, extra: Partial<Record<'area' | 'nivel' | 'unidad' | 'descripcion', string>> = {}) =>
    [extra.area ?? 'MA', extra.nivel ?? '01', extra.unidad ?? 'Unidad 1', '', oa, extra.descripcion ?? 'Enunciado.', '', 'sí', ''].join(
      ',',
    );

  it('reports each bad line in Spanish, and a confirmed import with errors is a 400 that applies nothing', async () => {
    const archivo = [
      CABECERA,
      fila('MA01 OA 90'),
      fila('MA01 OA 90'),
      fila('XX01 OA 01', { area: 'XX' }),
      fila('MA9Z OA 01', { nivel: '9Z' }),
      fila('IN01 OA 01', { area: 'IN' }),
      fila('MA01 OA 91', { descripcion: '' }),
      fila('MA01 OA 92', { descripcion: 'x'.repeat(3001) }),
      fila('MA02 OA 01'),
      fila('MA07 OA 01', { nivel: '07' }).replace('Unidad 1', 'Otra'),
      'MA,01,Unidad 1,,MA01 OA 93,Enunciado,,quizás,',
      fila('MA08 OA 01', { nivel: '01' }),
    ].join('\n');
    const previa = await json(await importar(archivo, 'false'));
    const por = Object.fromEntries(previa.errores.map((e: { linea: number; mensaje: string }) => [e.linea, e.mensaje]));
    expect(por[3]).toBe('El OA MA01 OA 90 está repetido en el archivo (línea 2)');
    expect(por[4]).toContain('La asignatura «XX» no existe');
    expect(por[5]).toContain('El nivel «9Z» no existe');
    expect(por[6]).toBe('Inglés no se enseña en 1° básico');
    expect(por[7]).toBe('Debe ingresar el enunciado del OA MA01 OA 91');
    expect(por[8]).toBe('El enunciado del OA MA01 OA 92 tiene más de 3000 caracteres');
    expect(por[9]).toContain('El código MA02 OA 01 no corresponde a Matemática de 1° básico');
    expect(por[10]).toBeUndefined();
    expect(por[11]).toBe('La columna vigente debe decir sí o no');
    expect(por[12]).toContain('no corresponde');
    expect(previa.errores).toHaveLength(9);

    const antes = await t.db.select().from(oas);
    const confirmada = await importar(archivo, 'true');
    expect(confirmada.status).toBe(400);
    const cuerpo = await json(confirmada);
    expect(cuerpo.detail).toBe('El archivo tiene errores en 9 líneas; no se aplicó ningún cambio');
    expect(cuerpo.lineas).toEqual(previa.errores);
    expect(await t.db.select().from(oas)).toEqual(antes);
  });

  it('refuses an OA code that lives in another pair', async () => {
    const [ajeno] = await t.db
      .select({ codigo: oas.codigo })
      .from(oas)
      .innerJoin(unidades, eq(unidades.id, oas.unidad))
      .where(and(eq(unidades.codigo_nivel, '07'), eq(unidades.id_area, await areaId('MA'))))
      .limit(1);
    // Moved by hand to a unit of another pair, as an old database might hold it.
    const otra = await unidadDe(t, 'MA', '08');
    await t.db
      .update(oas)
      .set({ unidad: otra.id })
      .where(eq(oas.codigo, ajeno?.codigo ?? ''));
    const r = await json(await importar([CABECERA, `MA,07,Unidad 1,,${ajeno?.codigo},Enunciado.,,sí,`].join('\n'), 'false'));
    expect(r.errores[0].mensaje).toBe(`El OA ${ajeno?.codigo} ya existe en otra asignatura o nivel (MA 08)`);
    const [propia] = await t.db
      .select()
      .from(unidades)
      .where(and(eq(unidades.id_area, await areaId('MA')), eq(unidades.codigo_nivel, '07')))
      .limit(1);
    await t.db
      .update(oas)
      .set({ unidad: propia?.id ?? 0 })
      .where(eq(oas.codigo, ajeno?.codigo ?? ''));
  });

  it('refuses a broken encoding line by line, missing columns, too many rows quickly, and too many bytes', async () => {
    const roto = Buffer.concat([
      Buffer.from(`${CABECERA}\nMA,01,Unidad 1,,MA01 OA 94,Texto `),
      Buffer.from([0x81, 0x8d, 0x9d]),
      Buffer.from(',,sí,\n'),
    ]);
    const r = await json(await importar(roto, 'false'));
    expect(r.errores).toEqual([{ linea: 2, mensaje: expect.stringContaining('caracteres no válidos') }]);

    const sinColumnas = await importar('area,nivel,oa\nMA,01,MA01 OA 01\n', 'false');
    expect(sinColumnas.status).toBe(400);
    expect((await json(sinColumnas)).detail).toContain('Faltan columnas en el encabezado: unidad, descripcion');

    const muchas = [CABECERA, ...Array.from({ length: 50_000 }, (_, i) => `MA,01,U,,MA01 OA ${i},E,,,`)].join('\n');
    const inicio = Date.now();
    const demasiadas = await importar(muchas, 'false');
    expect(demasiadas.status).toBe(400);
    expect((await json(demasiadas)).detail).toBe('El archivo tiene más de 20000 filas');
    expect(Date.now() - inicio).toBeLessThan(5000);
    const muchasJson = JSON.stringify(Array.from({ length: 20_001 }, () => ({})));
    expect((await json(await importar(muchasJson, 'false', 'c.json'))).detail).toBe('El archivo tiene más de 20000 filas');

    const grande = await importar(`${CABECERA}\n${'x'.repeat(5 * 1024 * 1024)}`, 'false');
    expect(grande.status).toBe(413);

    expect((await importar('{"no": "una lista"}', 'false', 'c.json')).status).toBe(400);
    expect((await importar(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00]), 'false', 'c.csv')).status).toBe(400);
  });
});

describe('a large file', () => {
  it('previews and applies 20 000 rows of one pair in one go', { timeout: 120_000 }, async () => {
    const filas = Array.from(
      { length: 20_000 },
      (_, i) => `EF,03,Unidad ${1 + Math.floor(i / 500)},,EF03 OA ${String(i + 1).padStart(5, '0')},Enunciado ${i + 1}.,,sí,`,
    );
    const archivo = [CABECERA, ...filas].join('\n');
    let inicio = Date.now();
    const previa = await json(await importar(archivo, 'false'));
    const tiempoPrevia = Date.now() - inicio;
    expect(previa).toMatchObject({ errores: [], agregados: 20_040 });
    inicio = Date.now();
    const aplicada = await json(await importar(archivo, 'true'));
    const tiempoAplicada = Date.now() - inicio;
    expect(aplicada).toMatchObject({ confirmado: true, agregados: 20_040 });
    const otraVez = await json(await importar(archivo, 'false'));
    expect(otraVez).toMatchObject({ agregados: 0, cambiados: 0, retirados: 0, sin_cambios: 20_040 });
    expect(tiempoPrevia).toBeLessThan(20_000);
    expect(tiempoAplicada).toBeLessThan(60_000);
  });
});

describe('the shipped curriculum at start-up', () => {
  type UnidadPar = { id: number; codigo: string; nombre: string; oas: { id: number; codigo: string; descripcion: string }[] };
  const codigosDe = (u: UnidadPar) => u.oas.map((oa) => oa.codigo);

  it("adds a file's OAs to a pair of curriculum-data.ts in a unit of their own, and a new start keeps the network's edits", async () => {
    // Ciencias Naturales 6°: units in curriculum-data.ts, the rest of its OAs in curriculo/CN-06.json.
    const enArchivo = curriculo()
      .find((p) => p.area === 'CN' && p.nivel === '06')
      ?.unidades.find((u) => u.codigo === 'CN06 UX');
    expect(enArchivo?.oas.length).toBeGreaterThan(0);
    const antes = await json(await get('/api/admin/curriculo/CN/06/'));
    const previas = data.unidades.filter((u) => u.area === 'CN' && u.nivel === '06');
    expect(antes.unidades.map((u: UnidadPar) => u.codigo)).toEqual([...previas.map((u) => u.codigo), 'CN06 UX']);
    previas.forEach((u, i) => {
      expect(codigosDe(antes.unidades[i])).toEqual(u.oas.map((oa) => oa.codigo));
    });
    const otros: UnidadPar = antes.unidades.at(-1);
    expect(otros.nombre).toBe('Otros objetivos de Ciencias Naturales 6° básico');
    expect(otros.oas.map((oa) => [oa.codigo, oa.descripcion])).toEqual(enArchivo?.oas.map((oa) => [oa.codigo, oa.descripcion]));

    // The network corrects a statement, renames the unit and moves an OA; the next start changes none of it.
    const [primero] = antes.unidades[0].oas;
    const movido = otros.oas[0];
    expect((await put(`/api/admin/curriculo/oas/${primero.id}/`, { descripcion: `${primero.descripcion} (editado)` })).status).toBe(200);
    expect((await put(`/api/admin/curriculo/unidades/${otros.id}/`, { nombre: 'Energía y materia' })).status).toBe(200);
    expect((await put(`/api/admin/curriculo/oas/${movido?.id}/`, { unidad: antes.unidades[0].id })).status).toBe(200);
    const editado = await json(await get('/api/admin/curriculo/CN/06/'));
    await seedCatalogos(t.db);
    expect(await json(await get('/api/admin/curriculo/CN/06/'))).toEqual(editado);
    expect(editado.unidades.at(-1).nombre).toBe('Energía y materia');
    expect(editado.unidades[0].oas[0].descripcion).toBe(`${primero.descripcion} (editado)`);
    expect(codigosDe(editado.unidades[0])).toContain(movido?.codigo);

    await put(`/api/admin/curriculo/oas/${movido?.id}/`, { unidad: otros.id, orden: 1 });
    await put(`/api/admin/curriculo/unidades/${otros.id}/`, { nombre: otros.nombre });
    await put(`/api/admin/curriculo/oas/${primero.id}/`, { descripcion: primero.descripcion });
  });
});

describe('one transaction', () => {
  it('a failure midway applies nothing: no unit, no statement, no retirement, no log entry', async () => {
    const original = await (await exportar('area=MA&nivel=1M')).text();
    const [cabecera, primera, segunda, ...resto] = original.trim().split('\r\n');
    const archivo = [
      cabecera,
      (primera ?? '').replace(/,sí,/, ',no,'),
      ...resto,
      'MA,1M,Unidad que falla,,MA1M OA 97,Falla al insertar.,,sí,',
    ].join('\n');
    void segunda;
    await t.db.execute(
      sql.raw(`create or replace function falla_oa() returns trigger language plpgsql as $$ begin
        if new.codigo = 'MA1M OA 97' then raise exception 'falla a propósito'; end if; return new; end $$`),
    );
    await t.db.execute(sql.raw('create trigger falla_oa before insert on oas for each row execute function falla_oa()'));
    const antes = {
      oas: await t.db.select().from(oas),
      unidades: await t.db.select().from(unidades),
      log: await ultimaAccion('importar_curriculo'),
    };
    const previa = await json(await importar(archivo, 'false'));
    expect(previa.errores).toEqual([]);
    expect(previa.agregados).toBe(2);
    await expect(importar(archivo, 'true')).rejects.toThrow(/answered 500/);
    expect(await t.db.select().from(oas)).toEqual(antes.oas);
    expect(await t.db.select().from(unidades)).toEqual(antes.unidades);
    expect(await ultimaAccion('importar_curriculo')).toEqual(antes.log);
    await t.db.execute(sql.raw('drop trigger falla_oa on oas'));
  });
});

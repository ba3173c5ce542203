/** The comments and likes shared by capsules, materials and manuals (service level). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecursosService, type RecursosService } from '../../src/lib/server/services/recursos.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarManual } from '../support/contenido.ts';

let t: TestApi;
let recursos: RecursosService;
let manualId: number;
let ana: { id: number };
let luis: { id: number };
beforeAll(async () => {
  t = await createTestApi();
  recursos = createRecursosService(t.db);
  ana = await t.createUser({ nombre: 'Ana' });
  luis = await t.createUser({ nombre: 'Luis' });
  manualId = await insertarManual(t, ana, 'Manual');
});
afterAll(() => t.close());

describe('comments', () => {
  it('lists top-level comments and replies apart, newest first, with their authors', async () => {
    const primero = await recursos.comentar('manual', manualId, ana.id, 'Muy útil', null);
    const segundo = await recursos.comentar('manual', manualId, luis.id, '¿Sirve para 4° básico?', null);
    const respuesta = await recursos.comentar('manual', manualId, ana.id, 'Sí, con adaptaciones', segundo.id);
    expect(respuesta).toMatchObject({
      id_respuesta_comentario: segundo.id,
      id_recurso: manualId,
      id_usuario: { id: ana.id, primer_nombre: 'Ana', apellido_paterno: 'Pérez', foto_perfil: '' },
    });
    const { comentarios_base, comentarios_hijos } = await recursos.comentarios('manual', manualId);
    expect(comentarios_base.map((c) => c.id)).toEqual([segundo.id, primero.id]);
    expect(comentarios_hijos.map((c) => c.id)).toEqual([respuesta.id]);
  });

  it('replies only to a top-level comment of the same resource', async () => {
    const base = await recursos.comentar('manual', manualId, ana.id, 'Base', null);
    const reply = await recursos.comentar('manual', manualId, luis.id, 'Respuesta', base.id);
    await expect(recursos.comentar('manual', manualId, ana.id, 'Respuesta a respuesta', reply.id)).rejects.toMatchObject({ status: 400 });
    await expect(recursos.comentar('manual', manualId, ana.id, 'Huérfana', 999_999)).rejects.toMatchObject({ status: 400 });
  });

  it('answers 404 for a resource that does not exist', async () => {
    await expect(recursos.comentarios('material', 999_999)).rejects.toMatchObject({
      status: 404,
      body: { detail: 'No se encontró material' },
    });
    await expect(recursos.comentarios('capsula', 999_999)).rejects.toMatchObject({ body: { detail: 'No se encontró capsula' } });
  });
});

describe('likes', () => {
  it('toggles idempotently and answers the likes after the change', async () => {
    expect(await recursos.like('manual', manualId, ana.id, true)).toEqual([{ id: ana.id }]);
    expect(await recursos.like('manual', manualId, ana.id, true)).toEqual([{ id: ana.id }]);
    expect(await recursos.like('manual', manualId, luis.id, true)).toEqual([{ id: ana.id }, { id: luis.id }]);
    expect(await recursos.like('manual', manualId, ana.id, false)).toEqual([{ id: luis.id }]);
    expect(await recursos.like('manual', manualId, ana.id, false)).toEqual([{ id: luis.id }]);
  });
});

describe('views', () => {
  /** The manual's counter as stored. */
  const vistas = async (id: number) => (await t.db.query.manuales.findFirst({ where: (m, { eq }) => eq(m.id, id) }))?.n_visitas;

  it('count once per visit: a visit lasts while the person comes back within 30 minutes of their previous view', async () => {
    const id = await insertarManual(t, ana, 'Manual visitado');
    let ahora = new Date('2026-11-30T10:00:00Z');
    const conReloj = createRecursosService(t.db, () => ahora);
    const vista = async (minutos: number) => {
      ahora = new Date(Date.parse('2026-11-30T10:00:00Z') + minutos * 60_000);
      return conReloj.visitar('manual', id, luis.id);
    };
    // Every 20 minutes for 40: one visit, though 40 minutes passed since its first view.
    expect([await vista(0), await vista(20), await vista(40)]).toEqual([true, false, false]);
    // 31 minutes after the last view: a new visit.
    expect(await vista(71)).toBe(true);
    expect(await vistas(id)).toBe(2);
    // Another person's first view counts on its own.
    expect(await conReloj.visitar('manual', id, ana.id)).toBe(true);
    expect(await vistas(id)).toBe(3);
  });

  it('count a person opening the same item several times at once once', async () => {
    const id = await insertarManual(t, ana, 'Manual abierto en varias pestañas');
    const contadas = await Promise.all(Array.from({ length: 5 }, () => recursos.visitar('manual', id, luis.id)));
    expect(contadas.filter(Boolean)).toHaveLength(1);
    expect(await vistas(id)).toBe(1);
  });
});

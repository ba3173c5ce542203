/**
 * The comment counts the lists show (issue 36, decision 0080) come from each item's
 * `n_comentarios`, kept by triggers (drizzle/0020), no longer from counting the page's comments.
 * They must stay what the count showed: neither the placeholders of deleted comments nor hidden
 * ones, the same for everyone. Checked through the lists, the threads and the forum categories
 * after comments, replies, deletes (placeholders and real ones), moderation (hide and restore) and
 * an account's erasure, against the count the lists used to run; and a comment renews the read
 * caches of its item's table, which no statement of the app writes. On the suite's database
 * (PGlite, or PostgreSQL with DATABASE_URL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cambiosDe } from '../../src/lib/server/db/cambios.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import {
  insertarCapsula,
  insertarCategoria,
  insertarConversacion,
  insertarManual,
  insertarMaterial,
  type Sesion,
} from '../support/contenido.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let carla: Sesion;
let admin: Sesion;
let rosa: Sesion;
let pedro: Sesion;
beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  carla = await t.session({ nombre: 'Carla' });
  rosa = await t.session({ nombre: 'Rosa' });
  pedro = await t.session({ nombre: 'Pedro' });
  admin = await t.session({ nombre: 'Admin', admin: true });
}, 60_000);
afterAll(() => t.close());

type Tipo = 'capsula' | 'material' | 'manual';
const RUTAS: Record<Tipo, { base: string; lista: string; clave: string; tipoRecurso: string; denuncia: string }> = {
  capsula: { base: '/api/capsulas', lista: '/api/capsulas/', clave: 'capsula', tipoRecurso: 'id_capsula', denuncia: 'comentario_capsula' },
  material: {
    base: '/api/bdocente',
    lista: '/api/bdocente/',
    clave: 'material',
    tipoRecurso: 'id_material_docente',
    denuncia: 'comentario_material',
  },
  manual: { base: '/api/manuales', lista: '/api/manuales/', clave: 'manuales', tipoRecurso: 'id_manual', denuncia: 'comentario_manual' },
};
const COLUMNA: Record<Tipo, string> = { capsula: 'id_capsula', material: 'id_material', manual: 'id_manual' };

async function json<T>(quien: Sesion, ruta: string): Promise<T> {
  const r = await t.call('GET', ruta, { token: quien.token });
  expect(r.status, ruta).toBe(200);
  return r.json() as Promise<T>;
}

/** The count as the lists computed it before the counters: every comment neither deleted nor hidden. */
async function contados(tabla: 'comentarios' | 'foro_comentarios', columna: string, id: number): Promise<number> {
  const r = await t.db.execute(
    sql`select count(*)::int as n from ${sql.raw(tabla)} where ${sql.raw(columna)} = ${id} and not eliminado and not oculto`,
  );
  return (r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/** What the list (page 1, 50 a page) and the thread show for the item, for each reader, and the old count. */
async function cuentas(tipo: Tipo, id: number) {
  const { base, lista, clave } = RUTAS[tipo];
  const vistas: number[] = [];
  for (const quien of [ana, luis, admin]) {
    const pagina = await json<Record<string, { id: number; comentarios: number }[]>>(quien, `${lista}?tamano_pagina=50`);
    const item = pagina[clave]?.find((i) => i.id === id);
    expect(item, `${tipo} ${id} in its list`).toBeDefined();
    vistas.push(item?.comentarios ?? -1);
    vistas.push((await json<{ n_comentarios: number }>(quien, `${base}/comentarios/${id}/`)).n_comentarios);
  }
  return { vistas: [...new Set(vistas)], antes: await contados('comentarios', COLUMNA[tipo], id) };
}

async function comentar(tipo: Tipo, quien: Sesion, id: number, contenido: string, padre: number | null = null): Promise<number> {
  const { base, tipoRecurso } = RUTAS[tipo];
  const item = tipo === 'capsula' ? { id_capsula: id } : { id_recurso: id, tipo_recurso: tipoRecurso };
  const r = await t.call('POST', `${base}/comentarios/`, {
    token: quien.token,
    json: { id_usuario: quien.id, contenido, ...item, id_respuesta_comentario: padre },
  });
  expect(r.status).toBe(201);
  return ((await r.json()) as { id: number }).id;
}

async function denunciar(quien: Sesion, tipo: string, id: number): Promise<{ id: number; oculto: boolean }> {
  const d = await t.call('POST', '/api/denuncias/', { token: quien.token, json: { tipo, id, motivo: 'spam' } });
  expect(d.status).toBe(201);
  return d.json() as Promise<{ id: number; oculto: boolean }>;
}

async function resolver(idDenuncia: number, accion: 'ocultar' | 'restaurar' | 'eliminar') {
  const r = await t.call('POST', `/api/admin/denuncias/${idDenuncia}/resolver/`, { token: admin.token, json: { accion } });
  expect(r.status).toBe(200);
}

/** Three reports hide the item at once (issue 17); the admin then restores it. */
async function ocultadoPorDenunciasYRestaurado(tipo: string, id: number, esperar: (n: number) => Promise<void>, visibles: number) {
  const primera = await denunciar(ana, tipo, id);
  await denunciar(luis, tipo, id);
  expect((await denunciar(rosa, tipo, id)).oculto).toBe(true);
  await esperar(visibles - 1);
  await resolver(primera.id, 'restaurar');
  await esperar(visibles);
}

async function borrarCuenta(quien: Sesion) {
  const r = await t.call('POST', `/api/admin/usuarios/${quien.id}/eliminar/`, {
    token: admin.token,
    json: { motivo: 'Prueba de contadores', inmediato: true, conservar_aportes: false },
  });
  expect(r.status).toBe(202);
  expect(await r.json()).toMatchObject({ eliminada: true });
}

describe('comment counts kept in a column', () => {
  const items = {} as Record<Tipo, number>;
  const tipos: Tipo[] = ['capsula', 'material', 'manual'];
  let categoria: number;
  let conversacion: number;

  beforeAll(async () => {
    items.capsula = await insertarCapsula(t, ana, 'Cápsula comentada');
    items.material = await insertarMaterial(t, ana, 'Material comentado');
    items.manual = await insertarManual(t, ana, 'Manual comentado');
    categoria = await insertarCategoria(t);
    conversacion = await insertarConversacion(t, categoria, ana, 'Conversación comentada');
  });

  const esperar = async (tipo: Tipo, n: number) => {
    const { vistas, antes } = await cuentas(tipo, items[tipo]);
    expect({ tipo, vistas, antes }).toEqual({ tipo, vistas: [n], antes: n });
  };

  it('content: comments, deletes, placeholders, moderation and an erased account move the count as the rows do', async () => {
    for (const tipo of tipos) {
      const id = items[tipo];
      await esperar(tipo, 0);
      const a = await comentar(tipo, luis, id, 'Muy útil');
      const b = await comentar(tipo, luis, id, 'Lo usaré en clases');
      const c = await comentar(tipo, carla, id, 'Gracias por compartir');
      await comentar(tipo, carla, id, 'Estoy de acuerdo', a);
      await esperar(tipo, 4);
      // Edited text changes no count.
      expect(
        (await t.call('PUT', `${RUTAS[tipo].base}/comentarios/${b}/`, { token: luis.token, json: { contenido: 'Editado' } })).status,
      ).toBe(200);
      await esperar(tipo, 4);
      // Without replies it goes; with one it stays as an uncounted placeholder.
      expect((await t.call('DELETE', `${RUTAS[tipo].base}/comentarios/${b}/`, { token: luis.token })).status).toBe(204);
      await esperar(tipo, 3);
      expect((await t.call('DELETE', `${RUTAS[tipo].base}/comentarios/${a}/`, { token: luis.token })).status).toBe(204);
      await esperar(tipo, 2);
      // Hidden by moderation: counted for no one, its author and admins included; restored: counted again.
      await ocultadoPorDenunciasYRestaurado(RUTAS[tipo].denuncia, c, (n) => esperar(tipo, n), 2);
      await resolver((await denunciar(pedro, RUTAS[tipo].denuncia, c)).id, 'ocultar');
      await esperar(tipo, 1);
      await comentar(tipo, ana, id, 'Respuesta de la autora');
      await esperar(tipo, 2);
      // Deleted by moderation.
      const d = await comentar(tipo, luis, id, 'Publicidad');
      await esperar(tipo, 3);
      await resolver((await denunciar(ana, RUTAS[tipo].denuncia, d)).id, 'eliminar');
      await esperar(tipo, 2);
    }
    // Carla's account erased with her words: her hidden comment and her reply go, and with the
    // reply the placeholder it kept. Ana's comment remains.
    await borrarCuenta(carla);
    for (const tipo of tipos) await esperar(tipo, 1);
  });

  it('the forum: conversation lists, the conversation itself and its category count the same way', async () => {
    const otra = await t.session({ nombre: 'Olga' });
    const forum = async () => {
      const vistas = new Set<number>();
      for (const quien of [ana, luis, admin]) {
        const { conversaciones } = await json<{ conversaciones: { id: number; n_comentarios: number }[] }>(
          quien,
          `/api/foro/categorias/${categoria}/conversaciones/?tamano_pagina=50`,
        );
        vistas.add(conversaciones.find((c) => c.id === conversacion)?.n_comentarios ?? -1);
        vistas.add((await json<{ n_comentarios: number }>(quien, `/api/foro/conversacion/${conversacion}/`)).n_comentarios);
        vistas.add((await json<{ n_comentarios: number }>(quien, `/api/foro/categorias/${categoria}/`)).n_comentarios);
      }
      return { vistas: [...vistas], antes: await contados('foro_comentarios', 'id_conversacion', conversacion) };
    };
    const comentarForo = async (quien: Sesion, contenido: string, padre: number | null = null) => {
      const r = await t.call('POST', '/api/foro/conversacion/comentar/', {
        token: quien.token,
        json: { id_conversacion: conversacion, id_categoria: categoria, contenido, comentario_padre: padre },
      });
      expect(r.status).toBe(201);
      return ((await r.json()) as { id: number }).id;
    };
    const esperarForo = async (n: number) => expect(await forum()).toEqual({ vistas: [n], antes: n });
    const borrarForo = async (quien: Sesion, id: number) =>
      expect((await t.call('DELETE', `/api/foro/comentario/${id}/`, { token: quien.token })).status).toBe(204);

    await esperarForo(0);
    const a = await comentarForo(luis, 'Buena idea');
    const b = await comentarForo(luis, 'Otra idea');
    const c = await comentarForo(otra, 'Mi experiencia');
    const r1 = await comentarForo(otra, 'Respondo', a);
    await comentarForo(otra, 'Y respondo otra vez', r1);
    await esperarForo(5);
    await borrarForo(luis, b);
    await esperarForo(4);
    await borrarForo(luis, a);
    await esperarForo(3);
    await ocultadoPorDenunciasYRestaurado('comentario_foro', c, esperarForo, 3);
    await resolver((await denunciar(pedro, 'comentario_foro', c)).id, 'ocultar');
    await esperarForo(2);
    await comentarForo(ana, 'Gracias a todas');
    await esperarForo(3);
    // Olga's erasure takes her three comments (one hidden), and the placeholder left without replies.
    await borrarCuenta(otra);
    await esperarForo(1);
  });

  it('a bulk load (a restore, the bench) is recounted from the rows by recontar_comentarios()', async () => {
    await t.db.execute(sql`update materiales set n_comentarios = n_comentarios + 7 where id = ${items.material}`);
    await t.db.execute(sql`update foro_conversaciones set n_comentarios = 0 where id = ${conversacion}`);
    await t.db.execute(sql`select public.recontar_comentarios()`);
    await esperar('material', 1);
    expect(await contados('foro_comentarios', 'id_conversacion', conversacion)).toBe(1);
    const r = await t.db.execute(sql`select n_comentarios as n from foro_conversaciones where id = ${conversacion}`);
    expect((r as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });

  it("a comment moves the version of its item's table, which the read caches of the lists compare", async () => {
    const cambios = cambiosDe(t.db);
    expect(cambios).toBeDefined();
    const version = (tabla: string) => cambios?.version([tabla]) ?? 0;
    const antes = { materiales: version('materiales'), conversaciones: version('foro_conversaciones') };
    await comentar('material', luis, items.material, 'Un comentario más');
    expect(version('materiales')).toBeGreaterThan(antes.materiales);
    expect(version('foro_conversaciones')).toBe(antes.conversaciones);
    await t.call('POST', '/api/foro/conversacion/comentar/', {
      token: luis.token,
      json: { id_conversacion: conversacion, id_categoria: categoria, contenido: 'Otro comentario' },
    });
    expect(version('foro_conversaciones')).toBeGreaterThan(antes.conversaciones);
  });

  it('deleting an item with comments deletes them without a failed counter update', async () => {
    const id = await insertarMaterial(t, ana, 'Material que se borra');
    await comentar('material', luis, id, 'Comentario que se va');
    expect((await t.call('DELETE', `/api/bdocente/${id}/`, { token: ana.token })).status).toBe(204);
    expect(await contados('comentarios', 'id_material', id)).toBe(0);
  });
});

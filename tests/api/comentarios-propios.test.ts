/**
 * Own words (issue 17): the author edits and deletes their own comments on capsules, materials,
 * manuals and the forum, and their forum conversations; admins may too, and their moderation is
 * written to the audit log. An edited one is `editado`; a deleted comment with replies stays as a
 * placeholder (`eliminado`, text emptied), one without replies goes. Every response is checked
 * against openapi.yaml by `t.call`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { comentarios, foroComentarios, foroConversaciones, limitesIntentos, registroAdmin } from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCapsula, insertarCategoria, insertarManual, insertarMaterial, llamadas, type Sesion } from '../support/contenido.ts';

let t: TestApi;

let admin: Sesion;
let ana: Sesion;
let luis: Sesion;
const ids = { capsula: 0, material: 0, manual: 0, categoria: 0 };

type Seccion = {
  nombre: string;
  prefijo: string;
  crear: (quien: Sesion, contenido: string, padre?: number | null) => Promise<{ id: number }>;
};

const comentarCon =
  (prefijo: string, cuerpo: (padre: number | null) => Record<string, unknown>) =>
  async (quien: Sesion, contenido: string, padre: number | null = null) => {
    const res = await t.call('POST', `${prefijo}/comentarios/`, { token: quien.token, json: { contenido, ...cuerpo(padre) } });
    expect(res.status).toBe(201);
    return res.json();
  };

let secciones: Seccion[] = [];

const editar = (quien: Sesion | null, path: string, json: unknown) =>
  t.call('PUT', path, { ...(quien ? { token: quien.token } : {}), json });
const borrar = (quien: Sesion | null, path: string) => t.call('DELETE', path, quien ? { token: quien.token } : {});
/** A GET that must answer 200: its body. */
const { json: get } = llamadas(() => t);

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Marta' });
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  ids.capsula = await insertarCapsula(t, admin, 'Cápsula');
  ids.material = await insertarMaterial(t, admin, 'Material');
  ids.manual = await insertarManual(t, admin, 'Manual', { autor: 'Marta' });
  secciones = [
    {
      nombre: 'capsulas',
      prefijo: '/api/capsulas',
      crear: comentarCon('/api/capsulas', (padre) => ({ id_capsula: ids.capsula, id_respuesta_comentario: padre })),
    },
    {
      nombre: 'bdocente',
      prefijo: '/api/bdocente',
      crear: comentarCon('/api/bdocente', (padre) => ({
        id_recurso: ids.material,
        tipo_recurso: 'id_material_docente',
        id_respuesta_comentario: padre,
      })),
    },
    {
      nombre: 'manuales',
      prefijo: '/api/manuales',
      crear: comentarCon('/api/manuales', (padre) => ({
        id_recurso: ids.manual,
        tipo_recurso: 'id_manual',
        id_respuesta_comentario: padre,
      })),
    },
  ];
  ids.categoria = await insertarCategoria(t);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(limitesIntentos);
});

const idDe = (seccion: Seccion) =>
  seccion.nombre === 'capsulas' ? ids.capsula : seccion.nombre === 'bdocente' ? ids.material : ids.manual;
/** The body of a reply to `padre` in `seccion`, for a request whose refusal is the point. */
const cuerpoRespuesta = (seccion: Seccion, padre: number) =>
  seccion.nombre === 'capsulas'
    ? { id_capsula: ids.capsula, id_respuesta_comentario: padre }
    : seccion.nombre === 'bdocente'
      ? { id_recurso: ids.material, tipo_recurso: 'id_material_docente', id_respuesta_comentario: padre }
      : { id_recurso: ids.manual, tipo_recurso: 'id_manual', id_respuesta_comentario: padre };
const lista = async (seccion: Seccion) =>
  (await get(ana, `${seccion.prefijo}/comentarios/${idDe(seccion)}/`)) as {
    comentarios_base: { id: number; contenido: string; editado: boolean; eliminado: boolean }[];
    comentarios_hijos: { id: number; contenido: string; editado: boolean; eliminado: boolean }[];
  };

describe('comments on capsules, materials and manuals', () => {
  it('a new comment says it is neither edited nor deleted', async () => {
    for (const s of [0, 1, 2]) {
      const seccion = secciones[s];
      if (!seccion) continue;
      const nuevo = await seccion.crear(ana, 'Muy útil');
      expect(nuevo).toMatchObject({ editado: false, eliminado: false });
    }
  });

  it('the author edits their comment: editado, the same rule as a new one; others 403, admins may', async () => {
    for (const seccion of secciones) {
      const c = await seccion.crear(ana, 'Primera versión');
      const path = `${seccion.prefijo}/comentarios/${c.id}/`;
      const ok = await editar(ana, path, { contenido: '  Segunda versión ' });
      expect(ok.status, seccion.nombre).toBe(200);
      expect(await ok.json()).toMatchObject({ id: c.id, contenido: 'Segunda versión', editado: true, eliminado: false });
      const vacio = await editar(ana, path, { contenido: '   ' });
      expect(vacio.status).toBe(400);
      expect((await vacio.json()).errors.contenido).toEqual(['Debe ingresar un comentario']);
      const ajeno = await editar(luis, path, { contenido: 'No es mío' });
      expect(ajeno.status).toBe(403);
      expect((await ajeno.json()).detail).toBe('No tienes permisos');
      expect((await borrar(luis, path)).status).toBe(403);
      expect((await editar(null, path, { contenido: 'x' })).status).toBe(401);
      expect((await borrar(null, path)).status).toBe(401);
      expect((await editar(admin, path, { contenido: 'Moderado' })).status).toBe(200);
      const { comentarios_base } = await lista(seccion);
      expect(comentarios_base.find((x) => x.id === c.id)).toMatchObject({ contenido: 'Moderado', editado: true, eliminado: false });
    }
  });

  it('404 for an unknown id and for a comment of another kind of content', async () => {
    const [capsulas, bdocente, manualesS] = secciones;
    if (!capsulas || !bdocente || !manualesS) throw new Error('no sections');
    const deCapsula = await capsulas.crear(ana, 'En la cápsula');
    expect((await editar(ana, `/api/bdocente/comentarios/${deCapsula.id}/`, { contenido: 'x' })).status).toBe(404);
    expect((await borrar(ana, `/api/manuales/comentarios/${deCapsula.id}/`)).status).toBe(404);
    const noExiste = await editar(ana, '/api/capsulas/comentarios/999999/', { contenido: 'x' });
    expect(noExiste.status).toBe(404);
    expect((await noExiste.json()).detail).toBe('No se encontró comentario');
    expect((await borrar(ana, '/api/capsulas/comentarios/999999/')).status).toBe(404);
  });

  it('deleting a comment with replies leaves a placeholder; without replies it goes, and so does an emptied placeholder', async () => {
    for (const seccion of secciones) {
      const base = await seccion.crear(ana, 'Pregunta');
      const respuesta = await seccion.crear(luis, 'Respuesta', base.id);
      const basePath = `${seccion.prefijo}/comentarios/${base.id}/`;
      expect((await borrar(ana, basePath)).status).toBe(204);
      let { comentarios_base, comentarios_hijos } = await lista(seccion);
      expect(comentarios_base.find((x) => x.id === base.id)).toMatchObject({ contenido: '', eliminado: true });
      expect(comentarios_hijos.find((x) => x.id === respuesta.id)).toMatchObject({ contenido: 'Respuesta', eliminado: false });
      // A placeholder can be neither edited nor deleted again, nor answered.
      expect((await editar(ana, basePath, { contenido: 'Vuelvo' })).status).toBe(404);
      const otra = await t.call('POST', `${seccion.prefijo}/comentarios/`, {
        token: luis.token,
        json: { contenido: 'Otra respuesta', ...cuerpoRespuesta(seccion, base.id) },
      });
      expect(otra.status).toBe(400);
      expect((await otra.json()).errors).toEqual({ id_respuesta_comentario: ['El comentario que responde no existe'] });
      expect((await borrar(ana, basePath)).status).toBe(404);
      // The last reply goes, and with it the placeholder it kept.
      expect((await borrar(luis, `${seccion.prefijo}/comentarios/${respuesta.id}/`)).status).toBe(204);
      ({ comentarios_base, comentarios_hijos } = await lista(seccion));
      expect(comentarios_base.some((x) => x.id === base.id)).toBe(false);
      expect(comentarios_hijos.some((x) => x.id === respuesta.id)).toBe(false);
      // A comment without replies is deleted for real.
      const solo = await seccion.crear(ana, 'Sin respuestas');
      expect((await borrar(ana, `${seccion.prefijo}/comentarios/${solo.id}/`)).status).toBe(204);
      expect((await t.db.select().from(comentarios).where(eq(comentarios.id, solo.id))).length).toBe(0);
    }
  });

  it('counts on the cards leave placeholders out', async () => {
    const manual = secciones[2];
    if (!manual) throw new Error('no manual section');
    const antes = (await get(ana, `/api/manuales/${ids.manual}/`)).comentarios as number;
    const base = await manual.crear(ana, 'Cuenta');
    await manual.crear(luis, 'Respuesta', base.id);
    expect((await get(ana, `/api/manuales/${ids.manual}/`)).comentarios).toBe(antes + 2);
    await borrar(ana, `/api/manuales/comentarios/${base.id}/`);
    expect((await get(ana, `/api/manuales/${ids.manual}/`)).comentarios).toBe(antes + 1);
  });

  it('an admin moderating someone else is in the audit log; the author on their own is not', async () => {
    const capsula = secciones[0];
    if (!capsula) throw new Error('no capsule section');
    const c = await capsula.crear(ana, 'Para moderar');
    const path = `/api/capsulas/comentarios/${c.id}/`;
    await editar(ana, path, { contenido: 'Yo misma' });
    expect(
      (await t.db.select().from(registroAdmin).where(eq(registroAdmin.id_registro, c.id))).filter((f) => f.tipo === 'comentario'),
    ).toHaveLength(0);
    await editar(admin, path, { contenido: 'Moderado' });
    await borrar(admin, path);
    const filas = (await t.db.select().from(registroAdmin).where(eq(registroAdmin.id_registro, c.id))).filter(
      (f) => f.tipo === 'comentario',
    );
    expect(filas.map((f) => [f.accion, f.tipo, f.id_admin])).toEqual([
      ['editar_comentario', 'comentario', admin.id],
      ['eliminar_comentario', 'comentario', admin.id],
    ]);
  });
});

describe('forum comments and conversations', () => {
  async function conversacion(quien: Sesion = ana) {
    const res = await t.call('POST', '/api/foro/conversacion/nueva/', {
      token: quien.token,
      json: { id_usuario: quien.id, titulo: 'Evaluación', contenido: 'Compartamos **ideas**', id_categoria: ids.categoria },
    });
    expect(res.status).toBe(201);
    return res.json();
  }
  async function comentar(quien: Sesion, conv: { id: number }, contenido: string, padre: number | null = null) {
    const res = await t.call('POST', '/api/foro/conversacion/comentar/', {
      token: quien.token,
      json: { id_conversacion: conv.id, id_categoria: ids.categoria, contenido, comentario_padre: padre },
    });
    expect(res.status).toBe(201);
    return res.json();
  }

  it('a forum comment is edited by its author (editado) or an admin; others 403; placeholders 404', async () => {
    const conv = await conversacion();
    const c = await comentar(ana, conv, 'Hola');
    expect(c).toMatchObject({ editado: false, eliminado: false });
    const path = `/api/foro/comentario/${c.id}/`;
    const ok = await editar(ana, path, { contenido: 'Hola a todos' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ contenido: 'Hola a todos', editado: true, eliminado: false });
    expect((await editar(ana, path, { contenido: '' })).status).toBe(400);
    const ajeno = await editar(luis, path, { contenido: 'x' });
    expect(ajeno.status).toBe(403);
    expect((await ajeno.json()).detail).toBe('No tienes permisos');
    expect((await borrar(luis, path)).status).toBe(403);
    expect((await editar(null, path, { contenido: 'x' })).status).toBe(401);
    expect((await editar(admin, path, { contenido: 'Moderado' })).status).toBe(200);
    expect((await editar(ana, '/api/foro/comentario/999999/', { contenido: 'x' })).status).toBe(404);
    const arbol = await get(ana, `/api/foro/conversacion/${conv.id}/respuestas/`);
    expect(arbol[0]).toMatchObject({ contenido: 'Moderado', editado: true, eliminado: false });
    const log = await t.db.select().from(registroAdmin).where(eq(registroAdmin.id_registro, c.id));
    expect(log.map((f) => f.accion)).toContain('editar_comentario_foro');
  });

  it('deleting keeps a placeholder over replies and clears placeholders left without replies, at any depth', async () => {
    const conv = await conversacion();
    const a = await comentar(ana, conv, 'A');
    const b = await comentar(luis, conv, 'B', a.id);
    const c = await comentar(ana, conv, 'C', b.id);
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_comentarios).toBe(3);
    expect((await borrar(ana, `/api/foro/comentario/${a.id}/`)).status).toBe(204);
    expect((await borrar(luis, `/api/foro/comentario/${b.id}/`)).status).toBe(204);
    let arbol = await get(ana, `/api/foro/conversacion/${conv.id}/respuestas/`);
    expect(arbol).toHaveLength(1);
    expect(arbol[0]).toMatchObject({ id: a.id, contenido: '', eliminado: true });
    expect(arbol[0].respuestas[0]).toMatchObject({ id: b.id, contenido: '', eliminado: true });
    expect(arbol[0].respuestas[0].respuestas[0]).toMatchObject({ id: c.id, contenido: 'C', eliminado: false });
    // Placeholders do not count.
    expect((await get(ana, `/api/foro/conversacion/${conv.id}/`)).n_comentarios).toBe(1);
    expect((await editar(ana, `/api/foro/comentario/${a.id}/`, { contenido: 'x' })).status).toBe(404);
    // The last real comment goes, and both placeholders above it with it.
    expect((await borrar(ana, `/api/foro/comentario/${c.id}/`)).status).toBe(204);
    arbol = await get(ana, `/api/foro/conversacion/${conv.id}/respuestas/`);
    expect(arbol).toEqual([]);
    expect(await t.db.select().from(foroComentarios).where(eq(foroComentarios.id_conversacion, conv.id))).toHaveLength(0);
  });

  it('the conversation is edited with the rules of a new one (editado) by its author or an admin', async () => {
    const conv = await conversacion();
    expect(conv.editado).toBe(false);
    const path = `/api/foro/conversacion/${conv.id}/`;
    const ok = await editar(ana, path, { titulo: 'Evaluación formativa', contenido: 'Con *ejemplos*' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ titulo: 'Evaluación formativa', contenido: '<p>Con <em>ejemplos</em></p>', editado: true });
    const malo = await editar(ana, path, { titulo: '', contenido: '' });
    expect(malo.status).toBe(400);
    expect((await malo.json()).errors).toMatchObject({
      titulo: ['Debe ingresar un titulo'],
      contenido: ['Debe ingresar el contenido de la conversación'],
    });
    expect((await editar(luis, path, { titulo: 'Mío', contenido: 'x' })).status).toBe(403);
    expect((await borrar(luis, path)).status).toBe(403);
    expect((await editar(null, path, { titulo: 'x', contenido: 'x' })).status).toBe(401);
    expect((await editar(ana, '/api/foro/conversacion/999999/', { titulo: 'x', contenido: 'x' })).status).toBe(404);
    expect((await editar(admin, path, { titulo: 'Moderada', contenido: 'x' })).status).toBe(200);
    const lista = await get(ana, `/api/foro/categorias/${ids.categoria}/conversaciones/`);
    expect(lista.conversaciones.find((x: { id: number }) => x.id === conv.id)).toMatchObject({ titulo: 'Moderada', editado: true });
  });

  it('deleting a conversation takes its comments with it; an admin deleting is in the audit log', async () => {
    const propia = await conversacion();
    await comentar(luis, propia, 'Comentario');
    expect((await borrar(ana, `/api/foro/conversacion/${propia.id}/`)).status).toBe(204);
    expect((await t.call('GET', `/api/foro/conversacion/${propia.id}/`, { token: ana.token })).status).toBe(404);
    expect(await t.db.select().from(foroComentarios).where(eq(foroComentarios.id_conversacion, propia.id))).toHaveLength(0);
    expect(
      (await t.db.select().from(registroAdmin).where(eq(registroAdmin.id_registro, propia.id))).filter((f) => f.tipo === 'conversacion'),
    ).toHaveLength(0);

    const ajena = await conversacion(luis);
    expect((await borrar(admin, `/api/foro/conversacion/${ajena.id}/`)).status).toBe(204);
    expect(await t.db.select().from(foroConversaciones).where(eq(foroConversaciones.id, ajena.id))).toHaveLength(0);
    const log = await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, 'eliminar_conversacion'));
    expect(log.map((f) => [f.tipo, f.id_registro, f.id_admin])).toContainEqual(['conversacion', ajena.id, admin.id]);
    expect((await borrar(admin, `/api/foro/conversacion/${ajena.id}/`)).status).toBe(404);
  });
});

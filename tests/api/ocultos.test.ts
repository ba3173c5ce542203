/**
 * Hidden by moderation (issue 17): an item with `oculto` is seen only by its author (with
 * `oculto: true`, so pages show a notice) and admins. For everyone else a capsule, material,
 * manual or conversation is absent from every list and search and its GET is 404, as is anything
 * done to it (comment, like, reaction); a hidden comment is treated like a deleted one (gone, or a
 * placeholder with empty text while it has replies they see); a hidden profile is absent from
 * /comunidad and its GET is 404. Items are hidden straight in the database, as the moderation
 * service does. Every response is checked against openapi.yaml by `t.call`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  capsulas,
  comentarios,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCapsula, insertarCategoria, insertarManual, insertarMaterial, llamadas, type Sesion } from '../support/contenido.ts';

let t: TestApi;

let admin: Sesion;
let ana: Sesion;
let luis: Sesion;
let maria: Sesion;
let idCategoria = 0;

const { get, post, json } = llamadas(() => t);

type Tabla = typeof capsulas | typeof materiales | typeof manuales;

/** A section and how to reach its list, detail, comments and like (their field names differ). */
interface Seccion {
  nombre: string;
  tabla: Tabla;
  prefijo: string;
  /** The list's key in its answer. */
  lista: string;
  crear: (autor: Sesion, titulo: string) => Promise<number>;
  comentario: (id: number, padre?: number | null) => Record<string, unknown>;
  like: (id: number) => Record<string, unknown>;
  /** The key of 'Mis publicaciones' (GET /api/usuarios/{id}/contenidos-subidos/). */
  publicaciones: 'capsulas' | 'materialesDocentes' | 'manuales';
}

const secciones: Seccion[] = [
  {
    nombre: 'capsulas',
    tabla: capsulas,
    prefijo: '/api/capsulas',
    lista: 'capsula',
    crear: (autor, titulo) => insertarCapsula(t, autor, titulo),
    comentario: (id, padre = null) => ({ id_capsula: id, id_respuesta_comentario: padre }),
    like: (id) => ({ id_capsula: id, add: true }),
    publicaciones: 'capsulas',
  },
  {
    nombre: 'bdocente',
    tabla: materiales,
    prefijo: '/api/bdocente',
    lista: 'material',
    crear: (autor, titulo) => insertarMaterial(t, autor, titulo),
    comentario: (id, padre = null) => ({ id_recurso: id, tipo_recurso: 'id_material_docente', id_respuesta_comentario: padre }),
    like: (id) => ({ id_material: id, add: true }),
    publicaciones: 'materialesDocentes',
  },
  {
    nombre: 'manuales',
    tabla: manuales,
    prefijo: '/api/manuales',
    lista: 'manuales',
    crear: (autor, titulo) => insertarManual(t, autor, titulo),
    comentario: (id, padre = null) => ({ id_recurso: id, tipo_recurso: 'id_manual', id_respuesta_comentario: padre }),
    like: (id) => ({ id_manual: id, add: true }),
    publicaciones: 'manuales',
  },
];

const ocultar = async (tabla: Tabla | typeof comentarios | typeof foroConversaciones | typeof foroComentarios, id: number) => {
  await t.db.update(tabla).set({ oculto: true }).where(eq(tabla.id, id));
};

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Marta' });
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  maria = await t.session({ nombre: 'María' });
  idCategoria = await insertarCategoria(t);
});
afterAll(() => t.close());

type Item = { id: number; oculto: boolean; comentarios: number };
type Hilo = {
  comentarios_base: { id: number; contenido: string; oculto: boolean }[];
  comentarios_hijos: { id: number; oculto: boolean }[];
};

describe.each(['capsulas', 'bdocente', 'manuales'])('hidden content of %s', (nombre) => {
  const seccion = () => secciones.find((s) => s.nombre === nombre) as Seccion;
  const lista = async (quien: Sesion, q = '') =>
    ((await json(quien, `${seccion().prefijo}/?tamano_pagina=50${q}`)) as Record<string, Item[]>)[seccion().lista] ?? [];

  it('is absent from lists and searches, 404 with its comments and likes for another teacher, shown with oculto to its author and admins', async () => {
    const s = seccion();
    const oculto = await s.crear(ana, 'Fracciones equivalentes ocultas');
    const visible = await s.crear(ana, 'Fracciones equivalentes visibles');
    // Read before hiding: whatever a cache kept must not outlive the change.
    expect((await lista(luis)).map((i) => i.id)).toContain(oculto);
    await ocultar(s.tabla, oculto);

    for (const q of ['', '&titulo=fracciones']) {
      const ids = (await lista(luis, q)).map((i) => i.id);
      expect(ids).toContain(visible);
      expect(ids).not.toContain(oculto);
    }
    expect((await get(luis, `${s.prefijo}/${oculto}/`)).status).toBe(404);
    expect((await get(luis, `${s.prefijo}/comentarios/${oculto}/`)).status).toBe(404);
    expect((await post(luis, `${s.prefijo}/comentarios/`, { contenido: 'Hola', ...s.comentario(oculto) })).status).toBe(404);
    expect((await post(luis, `${s.prefijo}/like/`, s.like(oculto))).status).toBe(404);
    const deAna = await json<Record<string, Item[]>>(luis, `/api/usuarios/${ana.id}/contenidos-subidos/`);
    expect(deAna[s.publicaciones]?.map((i) => i.id)).toEqual([visible]);

    for (const quien of [ana, admin]) {
      const enLista = (await lista(quien, '&titulo=fracciones')).find((i) => i.id === oculto);
      expect(enLista?.oculto).toBe(true);
      expect((await json<Item>(quien, `${s.prefijo}/${oculto}/`)).oculto).toBe(true);
      expect((await json<Hilo>(quien, `${s.prefijo}/comentarios/${oculto}/`)).comentarios_base).toEqual([]);
    }
    expect((await json<Item>(luis, `${s.prefijo}/${visible}/`)).oculto).toBe(false);
    const propias = await json<Record<string, Item[]>>(ana, `/api/usuarios/${ana.id}/contenidos-subidos/`);
    expect(propias[s.publicaciones]?.find((i) => i.id === oculto)?.oculto).toBe(true);
  });

  it('comments: a hidden one is gone for others, a placeholder while it has replies they see; its author and admins see it', async () => {
    const s = seccion();
    const id = await s.crear(admin, 'Lectura compartida');
    const comentar = async (quien: Sesion, contenido: string, padre: number | null = null) => {
      const res = await post(quien, `${s.prefijo}/comentarios/`, { contenido, ...s.comentario(id, padre) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const conRespuesta = await comentar(ana, 'Spam con respuesta');
    const respuesta = await comentar(luis, 'No publiques esto', conRespuesta);
    const solo = await comentar(ana, 'Spam sin respuestas');
    const deMarta = await comentar(admin, 'Bienvenidos');
    const respuestaOculta = await comentar(ana, 'Respuesta ofensiva', deMarta);
    for (const c of [conRespuesta, solo, respuestaOculta]) await ocultar(comentarios, c);

    const paraMaria = await json<Hilo>(maria, `${s.prefijo}/comentarios/${id}/`);
    expect(paraMaria.comentarios_base).toEqual([
      expect.objectContaining({ id: deMarta, contenido: 'Bienvenidos', oculto: false }),
      expect.objectContaining({ id: conRespuesta, contenido: '', oculto: true, eliminado: false }),
    ]);
    expect(paraMaria.comentarios_hijos.map((c) => c.id)).toEqual([respuesta]);
    // A hidden comment takes no reply from others; it is counted for no one.
    const aOculto = await post(maria, `${s.prefijo}/comentarios/`, { contenido: 'Yo también', ...s.comentario(id, solo) });
    expect(aOculto.status).toBe(400);
    const item = await json<Item>(maria, `${s.prefijo}/${id}/`);
    expect(item.comentarios).toBe(2);

    for (const quien of [ana, admin]) {
      const hilo = await json<Hilo>(quien, `${s.prefijo}/comentarios/${id}/`);
      expect(hilo.comentarios_base).toEqual([
        expect.objectContaining({ id: deMarta, oculto: false }),
        expect.objectContaining({ id: solo, contenido: 'Spam sin respuestas', oculto: true }),
        expect.objectContaining({ id: conRespuesta, contenido: 'Spam con respuesta', oculto: true }),
      ]);
      expect(hilo.comentarios_hijos.map((c) => [c.id, c.oculto])).toEqual([
        [respuestaOculta, true],
        [respuesta, false],
      ]);
    }
  });
});

describe('hidden forum conversations and comments', () => {
  async function conversacion(quien: Sesion, titulo: string) {
    const res = await post(quien, '/api/foro/conversacion/nueva/', {
      id_usuario: quien.id,
      titulo,
      contenido: 'Compartamos ideas',
      id_categoria: idCategoria,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }
  async function comentar(quien: Sesion, idConversacion: number, contenido: string, padre: number | null = null) {
    const res = await post(quien, '/api/foro/conversacion/comentar/', {
      id_conversacion: idConversacion,
      id_categoria: idCategoria,
      contenido,
      comentario_padre: padre,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: number }).id;
  }
  const listaIds = async (quien: Sesion, q = '') =>
    (
      await json<{ conversaciones: { id: number; oculto: boolean }[] }>(
        quien,
        `/api/foro/categorias/${idCategoria}/conversaciones/?tamano_pagina=50${q}`,
      )
    ).conversaciones;

  it('a hidden conversation is absent and 404 for others, with everything in it; its author and admins see it with oculto', async () => {
    const oculta = await conversacion(ana, 'Evaluación formativa oculta');
    const visible = await conversacion(ana, 'Evaluación formativa abierta');
    const categoriaAntes = await json<{ n_conversaciones: number }>(luis, `/api/foro/categorias/${idCategoria}/`);
    await ocultar(foroConversaciones, oculta);

    for (const q of ['', '&palabra_clave=evaluacion']) {
      const ids = (await listaIds(luis, q)).map((c) => c.id);
      expect(ids).toContain(visible);
      expect(ids).not.toContain(oculta);
    }
    expect((await json<{ n_conversaciones: number }>(luis, `/api/foro/categorias/${idCategoria}/`)).n_conversaciones).toBe(
      categoriaAntes.n_conversaciones - 1,
    );
    expect((await get(luis, `/api/foro/conversacion/${oculta}/`)).status).toBe(404);
    expect((await get(luis, `/api/foro/conversacion/${oculta}/respuestas/`)).status).toBe(404);
    const comentario = { id_conversacion: oculta, id_categoria: idCategoria, contenido: 'Hola' };
    expect((await post(luis, '/api/foro/conversacion/comentar/', comentario)).status).toBe(404);
    const reaccion = { id_conversacion: oculta, id_like: 1, action: 'like' };
    expect((await post(luis, '/api/foro/conversacion/like/', reaccion)).status).toBe(404);

    for (const quien of [ana, admin]) {
      expect((await listaIds(quien)).find((c) => c.id === oculta)?.oculto).toBe(true);
      expect((await json<{ oculto: boolean }>(quien, `/api/foro/conversacion/${oculta}/`)).oculto).toBe(true);
    }
    expect((await json<{ oculto: boolean }>(luis, `/api/foro/conversacion/${visible}/`)).oculto).toBe(false);
  });

  it('a hidden forum comment is gone for others, a placeholder while it has replies they see, at any depth', async () => {
    const conv = await conversacion(admin, 'Proyectos de aula');
    const raiz = await comentar(ana, conv, 'Spam con respuestas');
    const hija = await comentar(luis, conv, 'No publiques esto', raiz);
    const nieta = await comentar(ana, conv, 'Más spam', hija);
    const solo = await comentar(ana, conv, 'Spam sin respuestas');
    for (const c of [raiz, nieta, solo]) await ocultar(foroComentarios, c);

    type Nodo = { id: number; contenido: string; oculto: boolean; respuestas: Nodo[] };
    const forma = (nodos: Nodo[]): unknown[] => nodos.map((n) => [n.id, n.contenido, n.oculto, forma(n.respuestas)]);
    const paraMaria = await json<Nodo[]>(maria, `/api/foro/conversacion/${conv}/respuestas/`);
    expect(forma(paraMaria)).toEqual([[raiz, '', true, [[hija, 'No publiques esto', false, []]]]]);
    expect((await json<{ n_comentarios: number }>(maria, `/api/foro/conversacion/${conv}/`)).n_comentarios).toBe(1);
    const respuesta = { id_conversacion: conv, id_categoria: idCategoria, contenido: 'Yo también', comentario_padre: solo };
    expect((await post(maria, '/api/foro/conversacion/comentar/', respuesta)).status).toBe(400);
    expect((await post(maria, '/api/foro/comentario/like/', { id_comentario: solo, id_like: 1, action: 'like' })).status).toBe(404);

    for (const quien of [ana, admin]) {
      const arbol = await json<Nodo[]>(quien, `/api/foro/conversacion/${conv}/respuestas/`);
      expect(forma(arbol)).toEqual([
        [raiz, 'Spam con respuestas', true, [[hija, 'No publiques esto', false, [[nieta, 'Más spam', true, []]]]]],
        [solo, 'Spam sin respuestas', true, []],
      ]);
    }
  });
});

describe('a hidden profile', () => {
  it('is absent from /comunidad and 404 for others, with its publications and contact; the person and admins see it', async () => {
    const pedro = await t.session({ nombre: 'Pedro' });
    const buscar = async (quien: Sesion) =>
      (
        await json<{ profesor: { usuario: { id: number } }[] }>(quien, '/api/usuarios/profesores/?profesor=pedro&tamano_pagina=50')
      ).profesor.map((p) => p.usuario.id);
    // The totals: what everyone sees is kept between requests (issue 36), the person's own hidden profile counted for them.
    const total = async (quien: Sesion) =>
      (await json<{ num_results: number }>(quien, '/api/usuarios/profesores/?profesor=pedro')).num_results;
    expect(await buscar(luis)).toContain(pedro.id);
    const antes = await total(luis);
    expect(await total(pedro)).toBe(antes);
    await t.db.update(usuarios).set({ oculto: true }).where(eq(usuarios.id, pedro.id));

    expect(await buscar(luis)).not.toContain(pedro.id);
    expect([await total(luis), await total(pedro), await total(admin)]).toEqual([antes - 1, antes, antes]);
    expect((await get(luis, `/api/usuarios/${pedro.id}/`)).status).toBe(404);
    expect((await get(luis, `/api/usuarios/${pedro.id}/contenidos-subidos/`)).status).toBe(404);
    const mensaje = { id_usuario_receiver: pedro.id, asunto: 'Hola', mensaje: 'Quisiera conversar contigo.' };
    expect((await post(luis, `/api/usuarios/${luis.id}/enviar-email/`, mensaje)).status).toBe(404);

    expect(await buscar(admin)).toContain(pedro.id);
    for (const quien of [pedro, admin]) {
      expect((await json<{ oculto: boolean }>(quien, `/api/usuarios/${pedro.id}/`)).oculto).toBe(true);
      expect((await get(quien, `/api/usuarios/${pedro.id}/contenidos-subidos/`)).status).toBe(200);
    }
    // The person's content is not hidden with the profile.
    const capsula = await secciones[0]?.crear(pedro, 'Cápsula de Pedro');
    expect((await get(luis, `/api/capsulas/${capsula}/`)).status).toBe(200);
    expect((await json<{ oculto: boolean }>(luis, `/api/usuarios/${luis.id}/`)).oculto).toBe(false);
  });
});

/**
 * What issue 36's fixes change, on the database the suite runs on (PGlite, or PostgreSQL with
 * DATABASE_URL): a comment thread read a page at a time, lists that page no deeper than
 * MAX_FILAS_PAGINADAS, the title search's accent and case rules answered through its index, the
 * home's active conversations found without grouping every forum comment, the capsule search's
 * two indexes (title and captions) instead of a scan, the directory's search
 * through its trigram index and its order through an index, the home's newest content of a
 * profile's areas and levels and a conversation's latest comment through theirs, and the forum
 * categories' cached counters following every write.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filasDe } from '../../src/lib/server/db/client.server.ts';
import { MAX_FILAS_PAGINADAS } from '../../src/lib/server/db/paginar.server.ts';
import { capsulas, comentarios, foroComentarios, materiales, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { coincideBusqueda, coincideTexto } from '../../src/lib/server/db/search.server.ts';
import { FILAS_BLOQUE } from '../../src/lib/server/services/inicio.server.ts';
import { coincideEnCapsula } from '../../src/lib/server/services/subtitulos.server.ts';
import { LIMITE_HILO } from '../../src/lib/validation/comentarios.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { catalogos, insertarCategoria, insertarConversacion, insertarManual, insertarMaterial, type Sesion } from '../support/contenido.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
});
afterAll(() => t.close());

interface Hilo {
  comentarios_base: { id: number; contenido: string }[];
  comentarios_hijos: { id: number; id_respuesta_comentario: number }[];
  hay_mas: boolean;
  n_comentarios: number;
}

/**
 * The plan of `consulta` when a sequential scan is the last resort: which index answers it, if any.
 * `sinRecorrerIndices`: plain index scans too, for a table of a few rows, whose primary key a
 * planner would rather walk whole than read a search index.
 */
const planSinScan = (consulta: SQL, sinRecorrerIndices = false, sinOrdenar = false) =>
  t.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    if (sinRecorrerIndices) await tx.execute(sql`set local enable_indexscan = off`);
    if (sinOrdenar) await tx.execute(sql`set local enable_sort = off`);
    const filas = await filasDe<Record<string, string>>(tx, sql`explain ${consulta}`);
    return filas.map((f) => Object.values(f)[0]).join('\n');
  });
/** The plan of `consulta` when a scan and a sort are the last resort. */
const planOrdenado = (consulta: SQL) => planSinScan(consulta, false, true);

const hilo = async (ruta: string, token = luis.token): Promise<Hilo> => {
  const r = await t.call('GET', ruta, { token });
  expect(r.status).toBe(200);
  return r.json();
};

describe('a comment thread read a page at a time', () => {
  let manual: number;
  /** Top-level comment ids, oldest first; the newest has a reply, and so does the third. */
  let base: number[];
  let respuestas: number[];
  beforeAll(async () => {
    manual = await insertarManual(t, ana, 'Manual con muchos comentarios');
    const inicio = Date.parse('2026-03-01T12:00:00Z');
    const filas = await t.db
      .insert(comentarios)
      .values(
        Array.from({ length: LIMITE_HILO + 5 }, (_, i) => ({
          contenido: `Comentario ${i + 1}`,
          id_usuario: i % 2 ? ana.id : luis.id,
          id_manual: manual,
          fecha_creacion: new Date(inicio + i * 60_000),
        })),
      )
      .returning({ id: comentarios.id });
    base = filas.map((f) => f.id);
    const padres = [base.at(-1) as number, base[2] as number];
    const hijas = await t.db
      .insert(comentarios)
      .values(padres.map((p, i) => ({ contenido: `Respuesta ${i}`, id_usuario: ana.id, id_manual: manual, id_respuesta_comentario: p })))
      .returning({ id: comentarios.id });
    respuestas = hijas.map((h) => h.id);
  });

  it('answers the newest LIMITE_HILO top-level comments with their replies, says more remain and counts them all', async () => {
    const primera = await hilo(`/api/manuales/comentarios/${manual}/`);
    expect(primera.comentarios_base.map((c) => c.id)).toEqual(base.slice(-LIMITE_HILO).reverse());
    expect(primera.comentarios_hijos.map((c) => c.id)).toEqual([respuestas[0]]);
    expect(primera.hay_mas).toBe(true);
    expect(primera.n_comentarios).toBe(base.length + respuestas.length);
  });

  it("gives the rest after the page's last comment, with their replies, and no more", async () => {
    const primera = await hilo(`/api/manuales/comentarios/${manual}/`);
    const ultimo = primera.comentarios_base.at(-1)?.id;
    const segunda = await hilo(`/api/manuales/comentarios/${manual}/?antes=${ultimo}`);
    expect(segunda.comentarios_base.map((c) => c.id)).toEqual(base.slice(0, base.length - LIMITE_HILO).reverse());
    expect(segunda.comentarios_hijos.map((c) => c.id)).toEqual([respuestas[1]]);
    expect(segunda.hay_mas).toBe(false);
  });

  it('takes a smaller page; a size out of range is the default, a cursor of another item an empty page', async () => {
    const cinco = await hilo(`/api/manuales/comentarios/${manual}/?limite=5`);
    expect(cinco.comentarios_base).toHaveLength(5);
    expect(cinco.hay_mas).toBe(true);
    expect((await hilo(`/api/manuales/comentarios/${manual}/?limite=1000`)).comentarios_base).toHaveLength(LIMITE_HILO);
    const otro = await insertarManual(t, ana, 'Otro manual');
    const [ajeno] = await t.db.insert(comentarios).values({ contenido: 'Ajeno', id_usuario: ana.id, id_manual: otro }).returning();
    const vacia = await hilo(`/api/manuales/comentarios/${manual}/?antes=${ajeno?.id}`);
    expect(vacia).toMatchObject({ comentarios_base: [], comentarios_hijos: [], hay_mas: false });
    const mala = await t.call('GET', `/api/manuales/comentarios/${manual}/?antes=abc`, { token: luis.token });
    expect(mala.status).toBe(400);
    // Past what an id column holds (the fuzz found it as a 500): refused like any other bad id.
    for (const antes of ['2147483648', '1e3', '1.5', '0']) {
      const fuera = await t.call('GET', `/api/manuales/comentarios/${manual}/?antes=${antes}`, { token: luis.token });
      expect({ antes, status: fuera.status }).toEqual({ antes, status: 400 });
    }
  });

  it('pages the same way on materials and capsules', async () => {
    const material = await insertarMaterial(t, ana, 'Material comentado');
    await t.db
      .insert(comentarios)
      .values(Array.from({ length: 3 }, (_, i) => ({ contenido: `M${i}`, id_usuario: luis.id, id_material: material })));
    const uno = await hilo(`/api/bdocente/comentarios/${material}/?limite=2`);
    expect(uno).toMatchObject({ hay_mas: true, n_comentarios: 3 });
    const dos = await hilo(`/api/bdocente/comentarios/${material}/?limite=2&antes=${uno.comentarios_base.at(-1)?.id}`);
    expect(dos.comentarios_base).toHaveLength(1);
    expect(new Set([...uno.comentarios_base, ...dos.comentarios_base].map((c) => c.id)).size).toBe(3);
  });
});

describe('lists page no deeper than MAX_FILAS_PAGINADAS rows', () => {
  it('counts every result but pages only the first ones; a page beyond them is empty', async () => {
    const cat = await catalogos(t);
    const antes = (await (await t.call('GET', '/api/manuales/', { token: luis.token })).json()).num_results as number;
    await t.db.execute(
      sql`insert into manuales (titulo, autor, descripcion, extension, archivo, id_area, id_usuario)
          select 'Manual ' || n, 'Autora', 'Descripción', 'pdf', 'manuales/x/original.pdf', ${cat.area}, ${ana.id}
          from generate_series(1, ${MAX_FILAS_PAGINADAS + 5}) n`,
    );
    const total = antes + MAX_FILAS_PAGINADAS + 5;
    const ultima = await (await t.call('GET', '/api/manuales/?pagina=1000&tamano_pagina=10', { token: luis.token })).json();
    expect(ultima).toMatchObject({ num_results: total, num_pages: 1000 });
    expect(ultima.manuales).toHaveLength(10);
    const mas = await (await t.call('GET', '/api/manuales/?pagina=1001&tamano_pagina=10', { token: luis.token })).json();
    expect(mas).toMatchObject({ manuales: [], num_results: total, num_pages: 1000 });
    const grandes = await (await t.call('GET', '/api/manuales/?pagina=100&tamano_pagina=100', { token: luis.token })).json();
    expect(grandes.manuales).toHaveLength(100);
    expect(grandes.num_pages).toBe(100);
  });
});

describe('the title search: accents and case aside, through its index', () => {
  const titulos = ['Evaluación de fracciones', 'EVALUACION FORMATIVA', 'Comprensión lectora'];
  let ids: number[];
  beforeAll(async () => {
    ids = [];
    for (const titulo of titulos) ids.push(await insertarMaterial(t, ana, titulo, { descripcion: 'Para el aula' }));
  });

  const buscar = async (q: string) => {
    const r = await (await t.call('GET', `/api/bdocente/?titulo=${encodeURIComponent(q)}`, { token: luis.token })).json();
    return (r.material as { id: number }[]).map((m) => m.id).sort((a, b) => a - b);
  };

  it('finds the same items with or without accents, in any case, the last word as a prefix', async () => {
    const evaluacion = [ids[0], ids[1]];
    expect(await buscar('evaluación')).toEqual(evaluacion);
    expect(await buscar('EVALUACION')).toEqual(evaluacion);
    expect(await buscar('evaluacion fracc')).toEqual([ids[0]]);
    expect(await buscar('comprension LECTORA')).toEqual([ids[2]]);
    expect(await buscar('Comprensión')).toEqual([ids[2]]);
  });

  it('is answered by the search index over the stored vector, not a scan', async () => {
    await t.db.execute(sql`analyze materiales`);
    const plan = await planSinScan(sql`select id from materiales where ${coincideBusqueda(materiales, 'evaluacion')}`, true);
    expect(plan).toContain('materiales_busqueda_idx');
  });

  it('follows an edit of the title or the description, which the database keeps the stored vector in step with', async () => {
    const id = ids[2] ?? 0;
    await t.db.update(materiales).set({ titulo: 'Geometría en el patio' }).where(eq(materiales.id, id));
    expect(await buscar('comprension')).toEqual([]);
    expect(await buscar('GEOMETRIA patio')).toEqual([id]);
    await t.db.update(materiales).set({ descripcion: 'Ángulos con tiza' }).where(eq(materiales.id, id));
    expect(await buscar('angulos')).toEqual([id]);
    expect(await buscar('aula geometria')).toEqual([]);
  });
});

describe("the home's active conversations, from a bounded set of candidates", () => {
  const HORA = 3_600_000;
  it('orders by creation or latest comment, also when one busy conversation has all the latest comments', async () => {
    const hace = (ms: number) => new Date(t.clock.now.getTime() - ms);
    const categoria = await insertarCategoria(t, { nombre: 'Escala' });
    const ids: Record<string, number> = {};
    for (const [titulo, dias] of [
      ['Muy comentada', 30],
      ['Con un comentario', 20],
      ['Nueva 1', 1],
      ['Nueva 2', 2],
      ['Nueva 3', 3],
      ['Vieja', 40],
    ] as const)
      ids[titulo] = await insertarConversacion(t, categoria, ana, titulo, { fecha_creacion: hace(dias * 24 * HORA) });
    await t.db.insert(foroComentarios).values({
      id_conversacion: ids['Con un comentario'] as number,
      id_usuario: luis.id,
      contenido: 'Hola',
      fecha_creacion: hace(2 * HORA),
    });
    // More of the latest comments than the candidates look at, all on one conversation.
    await t.db.execute(
      sql`insert into foro_comentarios (id_conversacion, id_usuario, contenido, fecha_creacion)
          select ${ids['Muy comentada']}, ${luis.id}, 'Sí', ${t.clock.now.toISOString()}::timestamptz - make_interval(secs => n) from generate_series(1, 600) n`,
    );
    const titulos = async () => (await t.api.services.inicio.abrir({ id: luis.id, groups: [] })).conversaciones.map((c) => c.titulo);
    expect(await titulos()).toEqual(['Muy comentada', 'Con un comentario', 'Nueva 1', 'Nueva 2'].slice(0, FILAS_BLOQUE));
    const muy = (await t.api.services.inicio.abrir({ id: luis.id, groups: [] })).conversaciones[0];
    expect(muy?.comentarios).toBe(600);
    // Now the latest comments name several conversations: the candidates are enough.
    await t.db.insert(foroComentarios).values(
      ['Vieja', 'Nueva 3', 'Nueva 2'].map((titulo) => ({
        id_conversacion: ids[titulo] as number,
        id_usuario: luis.id,
        contenido: 'Nuevo',
        fecha_creacion: t.clock.now,
      })),
    );
    const ahora = await titulos();
    expect(ahora.slice(0, 3).sort()).toEqual(['Nueva 2', 'Nueva 3', 'Vieja']);
    expect(ahora[3]).toBe('Muy comentada');
  });
});

describe('the capsule search, title or captions, through both search indexes', () => {
  it('reads capsulas_busqueda_idx, not every capsule, though the captions may also answer', async () => {
    await t.db.execute(sql`analyze capsulas`);
    const enTitulo = coincideTexto([capsulas.titulo, capsulas.descripcion], 'fraccion');
    const plan = await planSinScan(sql`select id from capsulas where ${coincideEnCapsula(enTitulo, 'fraccion')}`, true);
    expect(plan).toContain('capsulas_busqueda_idx');
    expect(plan).toContain('subtitulos_busqueda_idx');
  });
});

describe("the directory's name search, through its trigram index", () => {
  it('is answered by usuarios_nombre_trgm_idx, over the stored names the search reads (drizzle/0030)', async () => {
    await t.db.execute(sql`analyze usuarios`);
    const plan = await planSinScan(sql`select id from usuarios where nombre_busqueda like '% munoz%'`);
    expect(plan).toContain('usuarios_nombre_trgm_idx');
  });

  it('stores the names as the search reads them: accents and case aside, each word after a space', async () => {
    const { id } = await t.session({ nombre: 'Pepe' });
    const nombres = { primer_nombre: 'José', segundo_nombre: 'Ángel', apellido_paterno: 'MUÑOZ', apellido_materno: 'Díaz' };
    await t.db.update(usuarios).set(nombres).where(eq(usuarios.id, id));
    const [leida] = await filasDe<{ nombre_busqueda: string }>(t.db, sql`select nombre_busqueda from usuarios where id = ${id}`);
    expect(leida?.nombre_busqueda).toBe(' jose angel munoz diaz');
  });
});

describe('reads in an index order instead of sorting every match (migrations 0022 and 0023)', () => {
  it("pages the directory by surname and name through usuarios_orden_nombre_idx (the query's order is the index's)", async () => {
    await t.db.execute(sql`analyze usuarios`);
    const plan = await planOrdenado(
      sql`select id from usuarios order by lower(public.f_unaccent(${usuarios.apellido_paterno})), lower(public.f_unaccent(${usuarios.primer_nombre})), ${usuarios.id} limit 10`,
    );
    expect(plan).toContain('usuarios_orden_nombre_idx');
  });

  it("finds the home's newest materials of a profile's area and level through materiales_area_nivel_idx", async () => {
    const cat = await catalogos(t);
    await t.db.execute(sql`analyze materiales`);
    const plan = await planOrdenado(
      sql`select id from materiales where id_area in (${cat.area}) and codigo_nivel in (${cat.nivel}) order by fecha_creacion desc, id desc limit ${FILAS_BLOQUE}`,
    );
    expect(plan).toContain('materiales_area_nivel_idx');
  });

  it("reads a conversation's latest counted comment from foro_comentarios_actividad_idx", async () => {
    await t.db.execute(sql`analyze foro_comentarios`);
    // A conversation of its own with a few hundred comments: with a handful, reading them all is as good.
    const otra = await insertarConversacion(t, await insertarCategoria(t, { nombre: 'Actividad' }), ana, 'Animada');
    await t.db
      .insert(foroComentarios)
      .values(Array.from({ length: 300 }, (_, i) => ({ id_conversacion: otra, id_usuario: luis.id, contenido: `Respuesta ${i}` })));
    await t.db.execute(sql`analyze foro_comentarios`);
    const plan = await planOrdenado(
      sql`select max(fecha_creacion) from foro_comentarios where id_conversacion = ${otra} and not eliminado and not oculto`,
    );
    expect(plan, plan).toContain('foro_comentarios_actividad_idx');
  });
});

describe("the forum categories' counters, kept until the forum is written", () => {
  it('follow a new conversation, a comment and a hidden conversation at once', async () => {
    const categoria = await insertarCategoria(t, { nombre: 'Contadores' });
    const cifras = async () => {
      const r = await t.call('GET', '/api/foro/categorias/?tamano_pagina=100', { token: luis.token });
      expect(r.status).toBe(200);
      const { categorias } = (await r.json()) as { categorias: { id: number; n_conversaciones: number; n_comentarios: number }[] };
      const c = categorias.find((x) => x.id === categoria);
      return [c?.n_conversaciones, c?.n_comentarios];
    };
    expect(await cifras()).toEqual([0, 0]);
    const conversacion = await insertarConversacion(t, categoria, ana, 'Primera');
    expect(await cifras()).toEqual([1, 0]);
    await t.db.insert(foroComentarios).values({ id_conversacion: conversacion, id_usuario: luis.id, contenido: 'Hola' });
    expect(await cifras()).toEqual([1, 1]);
    await t.db.execute(sql`update foro_conversaciones set oculto = true where id = ${conversacion}`);
    expect(await cifras()).toEqual([0, 0]);
  });
});

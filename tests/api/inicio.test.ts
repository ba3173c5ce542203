/**
 * The home's service (issue 21): 'Novedades para ti' filtered by the profile's areas and levels
 * (the network's newest when nothing matches, everything without a profile), only what the person
 * may open, forum conversations by their latest activity, unread notifications; and the visit
 * rule of 'Desde tu última visita' (openings less than an hour apart are one visit).
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  areas,
  capsulas,
  comentarios,
  foroCategorias,
  foroComentarios,
  foroConversaciones,
  manuales,
  materiales,
  notificaciones,
  perfilAreas,
  perfilNiveles,
  visitasInicio,
} from '../../src/lib/server/db/schema.server.ts';
import type { Actor } from '../../src/lib/server/services/actor.server.ts';
import { RECIENTES_FORO } from '../../src/lib/server/services/inicio/cuentas.server.ts';
import { RECIENTES_INICIO } from '../../src/lib/server/services/inicio/recientes.server.ts';
import { CUENTA_TOPE, FILAS_BLOQUE, siguienteVisita } from '../../src/lib/server/services/inicio.server.ts';
import { cuentasVisita, LISTAS, lineaPerfil, notaBloque, verMas } from '../../src/pages/_inicio/textos.ts';
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
let autor: Sesion;
let docente: Sesion;
let matematica: number;
let historia: number;
let lenguaje: number;

const MINUTO = 60 * 1000;
const HORA = 60 * MINUTO;
const DIA = 24 * HORA;

beforeAll(async () => {
  t = await createTestApi();
  const porCodigo = async (codigo: string) => (await t.db.select().from(areas).where(eq(areas.codigo, codigo)))[0]?.id ?? 0;
  [matematica, historia, lenguaje] = await Promise.all([porCodigo('MA'), porCodigo('HI'), porCodigo('LE')]);
});
afterAll(async () => {
  await t?.close();
});
// Each test starts from a network with no content and two new people (the blocks show the whole network's newest).
beforeEach(async () => {
  t.clock.now = new Date();
  autor = await t.session({ nombre: 'Rosa' });
  docente = await t.session({ nombre: 'Ana' });
});
afterEach(async () => {
  await t.db.delete(notificaciones);
  await t.db.delete(comentarios);
  await t.db.delete(capsulas);
  await t.db.delete(materiales);
  await t.db.delete(manuales);
  await t.db.delete(foroCategorias);
});

const como = (s: Sesion, groups: string[] = []): Actor => ({ id: s.id, groups });
const abrir = (s: Sesion, groups: string[] = []) => t.api.services.inicio.abrir(como(s, groups));
/** `ms` before the harness's clock. */
const hace = (ms: number) => new Date(t.clock.now.getTime() - ms);
const titulos = (items: { titulo: string }[]) => items.map((i) => i.titulo);

async function perfil(s: Sesion, idsAreas: number[], codigosNiveles: string[]) {
  if (idsAreas.length > 0) await t.db.insert(perfilAreas).values(idsAreas.map((id_area) => ({ id_usuario: s.id, id_area })));
  if (codigosNiveles.length > 0)
    await t.db.insert(perfilNiveles).values(codigosNiveles.map((codigo_nivel) => ({ id_usuario: s.id, codigo_nivel })));
}

describe('Novedades para ti', () => {
  it("shows the capsules and materials of the profile's areas AND levels, and the manuals of its areas, newest first", async () => {
    await perfil(docente, [matematica], ['07']);
    await insertarCapsula(t, autor, 'Fracciones en 7°', { id_area: matematica, codigo_nivel: '07', fecha_creacion: hace(3 * HORA) });
    await insertarCapsula(t, autor, 'Potencias en 7°', { id_area: matematica, codigo_nivel: '07', fecha_creacion: hace(HORA) });
    await insertarCapsula(t, autor, 'Álgebra en 8°', { id_area: matematica, codigo_nivel: '08', fecha_creacion: hace(MINUTO) });
    await insertarCapsula(t, autor, 'Independencia en 7°', { id_area: historia, codigo_nivel: '07', fecha_creacion: hace(MINUTO) });
    await insertarMaterial(t, autor, 'Guía de razones', { id_area: matematica, codigo_nivel: '07', fecha_creacion: hace(HORA) });
    await insertarMaterial(t, autor, 'Guía de la Colonia', { id_area: historia, codigo_nivel: '07', fecha_creacion: hace(MINUTO) });
    await insertarManual(t, autor, 'Manual de resolución de problemas', { id_area: matematica, fecha_creacion: hace(DIA) });
    await insertarManual(t, autor, 'Manual de fuentes históricas', { id_area: historia, fecha_creacion: hace(MINUTO) });

    const inicio = await abrir(docente);
    expect(inicio.perfil.areas.map((a) => a.id)).toEqual([matematica]);
    expect(inicio.perfil.niveles).toEqual([{ codigo: '07', nombre: '7° básico' }]);
    expect(inicio.capsulas.alcance).toBe('perfil');
    expect(titulos(inicio.capsulas.items)).toEqual(['Potencias en 7°', 'Fracciones en 7°']);
    expect(inicio.capsulas.items[0]).toMatchObject({
      area: 'Matemática',
      nivel: '7° básico',
      href: expect.stringMatching(/^\/capsulas\/\d+$/),
    });
    expect(inicio.materiales.alcance).toBe('perfil');
    expect(titulos(inicio.materiales.items)).toEqual(['Guía de razones']);
    expect(inicio.materiales.items[0]?.href).toMatch(/^\/biblioteca-docente\/\d+$/);
    expect(inicio.manuales.alcance).toBe('perfil');
    expect(titulos(inicio.manuales.items)).toEqual(['Manual de resolución de problemas']);
    expect(inicio.manuales.items[0]).toMatchObject({ area: 'Matemática', nivel: null });
  });

  it('filters by area alone when the profile has only areas, and by level alone when it has only levels', async () => {
    await insertarCapsula(t, autor, 'Álgebra en 8°', { id_area: matematica, codigo_nivel: '08', fecha_creacion: hace(HORA) });
    await insertarCapsula(t, autor, 'Independencia en 7°', { id_area: historia, codigo_nivel: '07', fecha_creacion: hace(MINUTO) });
    await insertarManual(t, autor, 'Manual de fuentes históricas', { id_area: historia, fecha_creacion: hace(MINUTO) });
    await insertarManual(t, autor, 'Manual de geometría', { id_area: matematica, fecha_creacion: hace(HORA) });

    await perfil(docente, [matematica], []);
    const soloAreas = await abrir(docente);
    expect(titulos(soloAreas.capsulas.items)).toEqual(['Álgebra en 8°']);
    expect(titulos(soloAreas.manuales.items)).toEqual(['Manual de geometría']);

    const otra = await t.session({ nombre: 'Luis' });
    await perfil(otra, [], ['07']);
    const soloNiveles = await abrir(otra);
    expect(soloNiveles.capsulas.alcance).toBe('perfil');
    expect(titulos(soloNiveles.capsulas.items)).toEqual(['Independencia en 7°']);
    // Manuals have no level: a profile of levels only shows them all.
    expect(soloNiveles.manuales.alcance).toBe('todo');
    expect(titulos(soloNiveles.manuales.items)).toEqual(['Manual de fuentes históricas', 'Manual de geometría']);
  });

  it("shows the network's newest where the profile finds nothing, and everything to a profile without areas or levels or an admin", async () => {
    for (let i = 1; i <= FILAS_BLOQUE + 1; i++)
      await insertarCapsula(t, autor, `Cápsula ${i}`, { id_area: historia, codigo_nivel: '05', fecha_creacion: hace((10 - i) * HORA) });
    await insertarMaterial(t, autor, 'Guía de la Colonia', { id_area: historia, codigo_nivel: '05' });

    await perfil(docente, [lenguaje], ['01']);
    const sinCoincidencias = await abrir(docente);
    expect(sinCoincidencias.capsulas.alcance).toBe('sin_coincidencias');
    expect(titulos(sinCoincidencias.capsulas.items)).toEqual(['Cápsula 5', 'Cápsula 4', 'Cápsula 3', 'Cápsula 2']);
    expect(sinCoincidencias.materiales).toMatchObject({ alcance: 'sin_coincidencias', items: [{ titulo: 'Guía de la Colonia' }] });
    // No manuals anywhere: nothing to fall back on either.
    expect(sinCoincidencias.manuales).toEqual({ alcance: 'sin_coincidencias', items: [] });

    const sinPerfil = await abrir(await t.session({ nombre: 'Luis' }));
    expect(sinPerfil.perfil).toEqual({ areas: [], niveles: [] });
    expect(sinPerfil.capsulas.alcance).toBe('todo');
    expect(titulos(sinPerfil.capsulas.items)).toEqual(['Cápsula 5', 'Cápsula 4', 'Cápsula 3', 'Cápsula 2']);

    const admin = await t.session({ admin: true });
    expect((await abrir(admin, ['admin'])).materiales).toMatchObject({ alcance: 'todo', items: [{ titulo: 'Guía de la Colonia' }] });
  });

  it('never shows hidden items, capsules not ready, or conversations of inactive categories to someone who cannot open them', async () => {
    await insertarCapsula(t, autor, 'Lista', { fecha_creacion: hace(HORA) });
    await insertarCapsula(t, autor, 'Procesando', { estado: 'procesando' });
    await insertarCapsula(t, autor, 'Fallida', { estado: 'error' });
    await insertarCapsula(t, autor, 'Oculta', { oculto: true });
    await insertarMaterial(t, autor, 'Material visible', { fecha_creacion: hace(HORA) });
    await insertarMaterial(t, autor, 'Material oculto', { oculto: true });
    await insertarManual(t, autor, 'Manual visible', { fecha_creacion: hace(HORA) });
    await insertarManual(t, autor, 'Manual oculto', { oculto: true });
    const activa = await insertarCategoria(t);
    const inactiva = await insertarCategoria(t, { nombre: 'Borradores', activa: false });
    await insertarConversacion(t, activa, autor, 'Conversación visible', { fecha_creacion: hace(HORA) });
    await insertarConversacion(t, activa, autor, 'Conversación oculta', { oculto: true });
    await insertarConversacion(t, inactiva, autor, 'Conversación de categoría inactiva');

    const inicio = await abrir(docente);
    expect(titulos(inicio.capsulas.items)).toEqual(['Lista']);
    expect(titulos(inicio.materiales.items)).toEqual(['Material visible']);
    expect(titulos(inicio.manuales.items)).toEqual(['Manual visible']);
    expect(titulos(inicio.conversaciones)).toEqual(['Conversación visible']);
    expect(inicio.visita.cuentas).toEqual({ capsulas: 1, materiales: 1, manuales: 1, conversaciones: 1, comentarios: 0 });

    // Its author still sees their hidden material (with its notice, on its page), as the list shows it.
    const delAutor = await abrir(autor);
    expect(titulos(delAutor.materiales.items)).toEqual(['Material oculto', 'Material visible']);
    expect(titulos(delAutor.capsulas.items)).toEqual(['Oculta', 'Lista']);
    expect(titulos(delAutor.conversaciones)).toEqual(['Conversación oculta', 'Conversación visible']);
  });

  it('shares the conversations block among those who see the same ones, and a conversation hidden since leaves it at once', async () => {
    const activa = await insertarCategoria(t);
    const id = await insertarConversacion(t, activa, autor, 'Debate abierto');
    await insertarConversacion(t, activa, autor, 'Otra conversación', { fecha_creacion: hace(HORA) });
    expect(titulos((await abrir(docente)).conversaciones)).toEqual(['Debate abierto', 'Otra conversación']);

    await t.db.update(foroConversaciones).set({ oculto: true }).where(eq(foroConversaciones.id, id));
    const otro = await t.session({ nombre: 'Otra docente' });
    expect(titulos((await abrir(otro)).conversaciones)).toEqual(['Otra conversación']);
    expect(titulos((await abrir(autor)).conversaciones)).toEqual(['Debate abierto', 'Otra conversación']);
    const admin = await t.session({ admin: true });
    expect(titulos((await abrir(admin, ['admin'])).conversaciones)).toEqual(['Debate abierto', 'Otra conversación']);
  });

  it('orders forum conversations by their latest activity: creation or latest comment', async () => {
    const categoria = await insertarCategoria(t);
    const antigua = await insertarConversacion(t, categoria, autor, 'Antigua con comentario nuevo', { fecha_creacion: hace(5 * DIA) });
    await insertarConversacion(t, categoria, autor, 'Reciente sin comentarios', { fecha_creacion: hace(2 * HORA) });
    const media = await insertarConversacion(t, categoria, autor, 'Media con comentario borrado', { fecha_creacion: hace(3 * DIA) });
    await t.db.insert(foroComentarios).values([
      { id_conversacion: antigua, id_usuario: docente.id, contenido: 'Lo probé', fecha_creacion: hace(HORA) },
      { id_conversacion: antigua, id_usuario: autor.id, contenido: 'Gracias', fecha_creacion: hace(30 * MINUTO) },
      // Deleted and hidden comments are no activity.
      { id_conversacion: media, id_usuario: docente.id, contenido: '', eliminado: true, fecha_creacion: hace(MINUTO) },
      { id_conversacion: media, id_usuario: docente.id, contenido: 'Spam', oculto: true, fecha_creacion: hace(MINUTO) },
    ]);

    const { conversaciones } = await abrir(docente);
    expect(titulos(conversaciones)).toEqual(['Antigua con comentario nuevo', 'Reciente sin comentarios', 'Media con comentario borrado']);
    expect(conversaciones[0]).toMatchObject({
      categoria: 'Convivencia',
      comentarios: 2,
      actividad: hace(30 * MINUTO).toISOString(),
      href: `/foro/categorias/${categoria}/conversacion/${antigua}`,
    });
    expect(conversaciones[2]?.comentarios).toBe(0);
  });

  it('lists the unread notifications, newest first, with their count', async () => {
    const manual = await insertarManual(t, docente, 'Mi manual');
    const comentar = async (s: Sesion, contenido: string) => {
      const res = await t.call('POST', '/api/manuales/comentarios/', {
        token: s.token,
        json: { id_usuario: s.id, contenido, id_recurso: manual, tipo_recurso: 'id_manual' },
      });
      expect(res.status).toBe(201);
    };
    expect((await abrir(docente)).notificaciones).toEqual({ no_leidas: 0, items: [] });
    await comentar(autor, '¡Muy útil!');
    const otra = await t.session({ nombre: 'Luis' });
    const like = await t.call('POST', '/api/manuales/like/', {
      token: otra.token,
      json: { id_usuario: otra.id, id_manual: manual, add: true },
    });
    expect(like.status).toBe(200);

    const { notificaciones } = await abrir(docente);
    expect(notificaciones.no_leidas).toBe(2);
    expect(notificaciones.items.map((n) => n.texto)).toEqual([
      'Luis marcó «Me gusta» en tu manual «Mi manual»',
      'Rosa comentó tu manual «Mi manual»',
    ]);
    expect(notificaciones.items.every((n) => !n.leida)).toBe(true);
  });
});

describe('Desde tu última visita', () => {
  it('counts the last 7 days on a first visit, keeps the counts within an hour and anchors on the previous visit after one', async () => {
    await insertarMaterial(t, autor, 'De hace 8 días', { fecha_creacion: hace(8 * DIA) });
    await insertarMaterial(t, autor, 'De hace 2 días', { fecha_creacion: hace(2 * DIA) });
    // One's own uploads are no news to oneself.
    await insertarMaterial(t, docente, 'Mío', { fecha_creacion: hace(DIA) });

    const primera = await abrir(docente);
    expect(primera.visita.anterior).toBeNull();
    // From 7 days before this minute (reloads within it share the cached counts).
    expect(primera.visita.desde).toBe(new Date(Math.floor(t.clock.now.getTime() / MINUTO) * MINUTO - 7 * DIA).toISOString());
    expect(primera.visita.cuentas.materiales).toBe(1);
    const abierta = t.clock.now;

    // A reload and a later opening within the hour: the same visit, the same counts.
    t.clock.now = new Date(abierta.getTime() + MINUTO);
    expect((await abrir(docente)).visita).toMatchObject({ anterior: null, cuentas: { materiales: 1 } });
    t.clock.now = new Date(abierta.getTime() + 40 * MINUTO);
    await insertarCapsula(t, autor, 'Nueva en la misma visita', { fecha_creacion: t.clock.now });
    expect((await abrir(docente)).visita).toMatchObject({ anterior: null, cuentas: { materiales: 1, capsulas: 1 } });
    const ultimaApertura = t.clock.now;

    // Back more than an hour after the last opening: a new visit, counted from that opening.
    t.clock.now = new Date(ultimaApertura.getTime() + HORA + MINUTO);
    await insertarManual(t, autor, 'Manual entre visitas', { fecha_creacion: hace(30 * MINUTO) });
    const segunda = await abrir(docente);
    expect(segunda.visita.anterior).toBe(ultimaApertura.toISOString());
    expect(segunda.visita.cuentas).toEqual({ capsulas: 0, materiales: 0, manuales: 1, conversaciones: 0, comentarios: 0 });

    // Reloading the new visit keeps its anchor.
    t.clock.now = new Date(t.clock.now.getTime() + 10 * MINUTO);
    expect((await abrir(docente)).visita.anterior).toBe(ultimaApertura.toISOString());
    const [fila] = await t.db.select().from(visitasInicio).where(eq(visitasInicio.id_usuario, docente.id));
    expect(fila?.visita_anterior?.toISOString()).toBe(ultimaApertura.toISOString());
    expect(fila?.visita_ultima?.toISOString()).toBe(t.clock.now.toISOString());
  });

  it('counts up to CUENTA_TOPE + 1 of what the person may open, newest first, and says past it "Más de 99" (issue 36)', async () => {
    // Hidden ones, newest of all: the count skips them and still finds the visible ones behind them.
    for (let i = 0; i < 5; i++) await insertarMaterial(t, autor, `Oculto ${i}`, { oculto: true, fecha_creacion: hace(MINUTO) });
    for (let i = 0; i < CUENTA_TOPE; i++) await insertarMaterial(t, autor, `Guía ${i}`, { fecha_creacion: hace((i + 2) * MINUTO) });
    const justo = await abrir(docente);
    expect(justo.visita.cuentas.materiales).toBe(CUENTA_TOPE);
    expect(cuentasVisita(justo.visita.cuentas)).toEqual([
      { href: '/biblioteca-docente/', texto: '99 materiales nuevos en la Biblioteca Docente' },
    ]);
    await insertarMaterial(t, autor, 'Una más', { fecha_creacion: hace(DIA) });
    await insertarMaterial(t, autor, 'Y otra', { fecha_creacion: hace(2 * DIA) });
    // A new visit (more than an hour later) reads the counts again.
    t.clock.now = new Date(t.clock.now.getTime() + 2 * HORA);
    await t.db.delete(visitasInicio).where(eq(visitasInicio.id_usuario, docente.id));
    const pasada = await abrir(docente);
    expect(pasada.visita.cuentas.materiales).toBe(CUENTA_TOPE + 1);
    expect(cuentasVisita(pasada.visita.cuentas)).toEqual([
      { href: '/biblioteca-docente/', texto: 'Más de 99 materiales nuevos en la Biblioteca Docente' },
    ]);
  });

  it("reads blocks from everyone's newest of each area and level, counts from a shared list, and asks the database where it ends too soon (issue 36)", async () => {
    // RECIENTES_INICIO materials newer than anything of History: 150 of Ana's own, then 60 of Rosa's.
    for (let i = 0; i < 150; i++)
      await insertarMaterial(t, docente, `Propia ${i}`, { id_area: matematica, fecha_creacion: hace((i + 1) * MINUTO) });
    for (let i = 0; i < 60; i++)
      await insertarMaterial(t, autor, `Ajena ${i}`, { id_area: matematica, fecha_creacion: hace((i + 200) * MINUTO) });
    for (let i = 1; i <= FILAS_BLOQUE + 1; i++)
      await insertarMaterial(t, autor, `Guía antigua de historia ${i}`, { id_area: historia, fecha_creacion: hace((i + 1) * DIA) });
    expect(RECIENTES_INICIO).toBeLessThan(211);
    await perfil(docente, [historia], []);
    const ana = await abrir(docente);
    // Far behind the network's newest, History's own newest four, as the database orders them.
    const historicas = [
      'Guía antigua de historia 1',
      'Guía antigua de historia 2',
      'Guía antigua de historia 3',
      'Guía antigua de historia 4',
    ];
    expect(titulos(ana.materiales.items)).toEqual(historicas);
    expect(ana.materiales.alcance).toBe('perfil');
    // The shared list ends before the week, and 60 of its rows are Ana's own: the count is the database's.
    expect(ana.visita.cuentas.materiales).toBe(FILAS_BLOQUE + 61);
    // Two areas: the newest of both together, interleaved by date.
    await insertarMaterial(t, autor, 'Historia de esta mañana', { id_area: historia, fecha_creacion: hace(90 * MINUTO) });
    const dos = await t.session({ nombre: 'Iris' });
    await perfil(dos, [historia, lenguaje], []);
    await insertarMaterial(t, autor, 'Lenguaje de anteayer', { id_area: lenguaje, fecha_creacion: hace(2 * DIA + HORA) });
    expect(titulos((await abrir(dos)).materiales.items)).toEqual([
      'Historia de esta mañana',
      'Guía antigua de historia 1',
      'Lenguaje de anteayer',
      'Guía antigua de historia 2',
    ]);
    // Within the list: another teacher's newest four and their count, the same as the database's.
    const otra = await t.session({ nombre: 'Eva' });
    const eva = await abrir(otra);
    expect(titulos(eva.materiales.items)).toEqual(['Propia 0', 'Propia 1', 'Propia 2', 'Propia 3']);
    expect(eva.visita.cuentas.materiales).toBe(CUENTA_TOPE + 1);
    // An admin's list holds the hidden ones too; a teacher's never.
    await insertarMaterial(t, autor, 'Oculta reciente', { id_area: matematica, oculto: true, fecha_creacion: hace(30 * 1000) });
    const admin = await t.session({ nombre: 'Admin' });
    expect(titulos((await abrir(admin, ['admin'])).materiales.items)[0]).toBe('Oculta reciente');
    const tercera = await t.session({ nombre: 'Luz' });
    expect(titulos((await abrir(tercera)).materiales.items)[0]).toBe('Propia 0');
    // Its author, who has a hidden item now, reads their own block from the database, with it.
    expect(titulos((await abrir(autor)).materiales.items)[0]).toBe('Oculta reciente');
  });

  it('starts a new visit at a new sign-in, however soon after the last opening (issue 33)', async () => {
    // `docente` signed in at the harness's clock; its first opening a minute later.
    t.clock.now = new Date(t.clock.now.getTime() + MINUTO);
    expect((await abrir(docente)).visita.anterior).toBeNull();
    // Still the same session: the same visit.
    t.clock.now = new Date(t.clock.now.getTime() + 10 * MINUTO);
    expect((await abrir(docente)).visita.anterior).toBeNull();
    const ultimaApertura = t.clock.now;

    // Signs out and in again within the hour: the home now counts from that last opening.
    t.clock.now = new Date(ultimaApertura.getTime() + 5 * MINUTO);
    await t.login(docente.email);
    t.clock.now = new Date(t.clock.now.getTime() + MINUTO);
    await insertarMaterial(t, autor, 'Entre ingresos', { fecha_creacion: hace(3 * MINUTO) });
    const segunda = await abrir(docente);
    expect(segunda.visita.anterior).toBe(ultimaApertura.toISOString());
    expect(segunda.visita.cuentas.materiales).toBe(1);

    // A reload in that session keeps its anchor.
    t.clock.now = new Date(t.clock.now.getTime() + 10 * MINUTO);
    expect((await abrir(docente)).visita.anterior).toBe(ultimaApertura.toISOString());
  });

  it('does not write the visit on a reload within minutes', () => {
    const ultima = new Date('2026-03-05T12:00:00Z');
    const anterior = new Date('2026-03-01T12:00:00Z');
    const leida = { visita_ultima: ultima, visita_anterior: anterior };
    expect(siguienteVisita(leida, new Date('2026-03-05T12:02:00Z'))).toEqual({ ...leida, escribir: false });
    expect(siguienteVisita(leida, new Date('2026-03-05T12:30:00Z'))).toEqual({
      visita_ultima: new Date('2026-03-05T12:30:00Z'),
      visita_anterior: anterior,
      escribir: true,
    });
    expect(siguienteVisita(leida, new Date('2026-03-05T13:00:00Z'))).toEqual({
      visita_ultima: new Date('2026-03-05T13:00:00Z'),
      visita_anterior: ultima,
      escribir: true,
    });
    expect(siguienteVisita({ visita_ultima: null, visita_anterior: null }, ultima)).toEqual({
      visita_ultima: ultima,
      visita_anterior: null,
      escribir: true,
    });
  });

  it('counts forum conversations and comments others wrote since the previous visit', async () => {
    await t.db
      .insert(visitasInicio)
      .values({ id_usuario: docente.id, visita_ultima: hace(2 * HORA), visita_anterior: hace(DIA) })
      .onConflictDoUpdate({ target: visitasInicio.id_usuario, set: { visita_ultima: hace(2 * HORA), visita_anterior: hace(DIA) } });
    const categoria = await insertarCategoria(t);
    const vieja = await insertarConversacion(t, categoria, autor, 'Vieja', { fecha_creacion: hace(3 * DIA) });
    await insertarConversacion(t, categoria, autor, 'Nueva', { fecha_creacion: hace(HORA) });
    await t.db.insert(foroComentarios).values([
      { id_conversacion: vieja, id_usuario: autor.id, contenido: 'Sigo aquí', fecha_creacion: hace(HORA) },
      { id_conversacion: vieja, id_usuario: docente.id, contenido: 'Yo también', fecha_creacion: hace(HORA) },
      { id_conversacion: vieja, id_usuario: autor.id, contenido: 'Antes', fecha_creacion: hace(3 * HORA) },
    ]);
    const { visita } = await abrir(docente);
    expect(visita.anterior).toBe(hace(2 * HORA).toISOString());
    expect(visita.cuentas).toMatchObject({ conversaciones: 1, comentarios: 1 });
  });

  it("reads the forum's counts from lists shared by everyone, and asks the database for whoever sees more or where the lists end too soon (issue 36)", async () => {
    const [abierta, cerrada] = [await insertarCategoria(t), await insertarCategoria(t, { nombre: 'Archivo', activa: false })];
    const vieja = await insertarConversacion(t, abierta, autor, 'Vieja', { fecha_creacion: hace(10 * DIA) });
    // Ana's own conversation, hidden by moderation before the week: hers and admins' only, with what others wrote in it since.
    const suya = await insertarConversacion(t, abierta, docente, 'Suya oculta', { oculto: true, fecha_creacion: hace(10 * DIA) });
    await insertarConversacion(t, abierta, autor, 'Nueva', { fecha_creacion: hace(HORA) });
    await insertarConversacion(t, cerrada, autor, 'En una categoría inactiva', { fecha_creacion: hace(HORA) });
    const comentario = (id_conversacion: number, quien: Sesion, extra: Partial<typeof foroComentarios.$inferInsert> = {}) => ({
      id_conversacion,
      id_usuario: quien.id,
      contenido: 'Aporte',
      fecha_creacion: hace(HORA),
      ...extra,
    });
    await t.db
      .insert(foroComentarios)
      .values([
        comentario(vieja, autor),
        comentario(vieja, autor, { fecha_creacion: hace(2 * HORA) }),
        comentario(vieja, docente),
        comentario(vieja, autor, { oculto: true }),
        comentario(vieja, autor, { eliminado: true }),
        comentario(suya, autor),
      ]);
    const eva = await t.session({ nombre: 'Eva' });
    const admin = await t.session({ nombre: 'Admin' });
    // The week of a first visit: the new conversation, and the visible comments of the old one.
    expect((await abrir(eva)).visita.cuentas).toMatchObject({ conversaciones: 1, comentarios: 3 });
    // Ana's own comment is not news to her; Rosa's in her hidden conversation is.
    expect((await abrir(docente)).visita.cuentas).toMatchObject({ conversaciones: 1, comentarios: 3 });
    // Rosa's own are not news to her: Ana's is.
    expect((await abrir(autor)).visita.cuentas).toMatchObject({ conversaciones: 0, comentarios: 1 });
    // An admin sees every category, hidden conversation and hidden comment.
    expect((await abrir(admin, ['admin'])).visita.cuentas).toMatchObject({ conversaciones: 2, comentarios: 5 });

    // RECIENTES_FORO comments of Luz's, newer than three more of Rosa's: the shared list ends before
    // it can tell Luz's count, and the database tells it; Eva's next visit counts past the cap from the list.
    t.clock.now = new Date(t.clock.now.getTime() + 2 * HORA);
    const luz = await t.session({ nombre: 'Luz' });
    await t.db
      .insert(foroComentarios)
      .values([
        ...Array.from({ length: RECIENTES_FORO }, (_, i) => comentario(vieja, luz, { fecha_creacion: hace(MINUTO + i) })),
        ...Array.from({ length: 3 }, (_, i) => comentario(vieja, autor, { fecha_creacion: hace(10 * MINUTO + i) })),
      ]);
    expect((await abrir(luz)).visita.cuentas).toMatchObject({ comentarios: 3 + 3 });
    expect((await abrir(eva)).visita.cuentas).toMatchObject({ comentarios: CUENTA_TOPE + 1 });
  });
});

describe("the home's words and links", () => {
  const ma = { id: 3, nombre: 'Matemática' };
  const cn = { id: 5, nombre: 'Ciencias Naturales' };
  const septimo = { codigo: '07', nombre: '7° básico' };
  const octavo = { codigo: '08', nombre: '8° básico' };

  it("sets the list's filters in 'Ver más': one link per area, with the level when the profile has exactly one", () => {
    expect(verMas(LISTAS.capsulas, 'perfil', [ma], [septimo])).toEqual([
      { href: '/capsulas/?area=3&nivel=07', texto: 'Ver más cápsulas de Matemática en 7° básico' },
    ]);
    expect(verMas(LISTAS.materiales, 'perfil', [ma, cn], [septimo, octavo])).toEqual([
      { href: '/biblioteca-docente/?id_area=3', texto: 'Ver más materiales de Matemática' },
      { href: '/biblioteca-docente/?id_area=5', texto: 'Ver más materiales de Ciencias Naturales' },
    ]);
    expect(verMas(LISTAS.materiales, 'perfil', [], [septimo])).toEqual([
      { href: '/biblioteca-docente/?id_nivel=07', texto: 'Ver más materiales de 7° básico' },
    ]);
    expect(verMas(LISTAS.manuales, 'perfil', [ma], [septimo])).toEqual([
      { href: '/manuales/?area=3', texto: 'Ver más manuales de Matemática' },
    ]);
    // The network's items (nothing of the profile, or no profile): the whole list.
    expect(verMas(LISTAS.capsulas, 'sin_coincidencias', [ma], [septimo])).toEqual([{ href: '/capsulas/', texto: 'Ver más cápsulas' }]);
    expect(verMas(LISTAS.manuales, 'todo', [], [])).toEqual([{ href: '/manuales/', texto: 'Ver más manuales' }]);
    const cinco = [1, 2, 3, 4, 5].map((id) => ({ id, nombre: `Área ${id}` }));
    expect(verMas(LISTAS.capsulas, 'perfil', cinco, []).map((e) => e.texto)).toEqual([
      'Ver más cápsulas de Área 1',
      'Ver más cápsulas de Área 2',
      'Ver más cápsulas de Área 3',
      'Ver la lista completa de cápsulas',
    ]);
  });

  it('says what the profile filters by, what a block found nothing of, and the counts in words', () => {
    expect(lineaPerfil([ma, cn], [septimo])).toBe('Según tus áreas (Matemática y Ciencias Naturales) y niveles (7° básico).');
    expect(lineaPerfil([ma], [])).toBe('Según tus áreas: Matemática.');
    expect(lineaPerfil([], [])).toBeNull();
    expect(notaBloque(LISTAS.capsulas, 'sin_coincidencias', [ma], [septimo])).toBe(
      'Aún no hay cápsulas de tus áreas y niveles: estas son las más recientes de la red.',
    );
    expect(notaBloque(LISTAS.manuales, 'sin_coincidencias', [ma], [septimo])).toBe(
      'Aún no hay manuales de tus áreas: estos son los más recientes de la red.',
    );
    expect(notaBloque(LISTAS.materiales, 'perfil', [ma], [])).toBeNull();
    expect(cuentasVisita({ capsulas: 1, materiales: 0, manuales: 2, conversaciones: 1, comentarios: 3 })).toEqual([
      { href: '/capsulas/', texto: '1 cápsula nueva' },
      { href: '/manuales/', texto: '2 manuales nuevos' },
      { href: '/foro/?order=fecha_ultimo_post', texto: '1 conversación nueva en el foro' },
      { href: '/foro/?order=fecha_ultimo_post', texto: '3 comentarios nuevos en el foro' },
    ]);
  });
});

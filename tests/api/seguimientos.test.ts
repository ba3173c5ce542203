/**
 * Following (issue 35, decision 0074): /api/seguimientos/ in process, the notifications a new
 * material, capsule or conversation brings to followers (grouped per follow while unread, never
 * for what is hidden or not ready, never to the author), the digest's stop link and the erasure.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsulas, materiales, notificaciones, oas, seguimientos, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { TRABAJO_CORREOS } from '../../src/lib/server/services/notificaciones.server.ts';
import { avisarNovedad } from '../../src/lib/server/services/seguimientos/avisos.server.ts';
import { SEGUIMIENTOS_MAX } from '../../src/lib/validation/seguimientos.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { camposDeMaterial, insertarCapsula, insertarCategoria, llamadas, type Sesion, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let rosa: Sesion;
let admin: Sesion;
let oa = { id: 0, codigo: '' };
let area = 0;
const { post, json } = llamadas(() => t);
const del = (quien: Sesion, path: string) => t.call('DELETE', path, { token: quien.token });
const detalle = async (res: Response) => ((await res.json()) as { detail: string }).detail;
const silencio = { error: () => {} };

interface Seguimiento {
  id: number;
  tipo: string;
  etiqueta: string;
  url: string;
}
interface Entrada {
  id: number;
  tipo: string;
  texto: string;
  enlace: string;
  leida: boolean;
}

/** A material uploaded by `quien` through the API (7° básico Matemática, aligned to `oa`). */
async function subirMaterial(quien: Sesion, titulo: string): Promise<number> {
  const campos = { ...(await camposDeMaterial(t)), titulo };
  const res = await t.call('POST', '/api/bdocente/', { token: quien.token, body: formData(campos, { data: pdf(1), name: 'guia.pdf' }) });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

const bandeja = async (quien: Sesion) =>
  (await json<{ notificaciones: Entrada[]; no_leidas: number }>(quien, '/api/notificaciones/?no_leidas=true')).notificaciones.filter(
    (n) => n.tipo === 'seguimiento',
  );

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  rosa = await t.session({ nombre: 'Rosa' });
  admin = await t.session({ admin: true });
  const u = await unidadDe(t, 'MA', '07');
  area = u.id_area;
  const [primero] = await t.db.select({ id: oas.id, codigo: oas.codigo }).from(oas).where(eq(oas.unidad, u.id));
  if (!primero) throw new Error('no OA seeded');
  oa = primero;
});
afterAll(() => t.close());

describe('the contract', () => {
  it('follows an OA (201 with its id and label), and again answers the same follow with 200 and no second row', async () => {
    const res = await post(ana, '/api/seguimientos/', { tipo: 'oa', oa: oa.id });
    expect(res.status).toBe(201);
    const s = (await res.json()) as Seguimiento;
    expect(s).toMatchObject({ tipo: 'oa', etiqueta: oa.codigo, url: `/biblioteca-docente/oa/${encodeURIComponent(oa.codigo)}` });
    const otra = await post(ana, '/api/seguimientos/', { tipo: 'oa', oa: oa.id });
    expect(otra.status).toBe(200);
    expect(((await otra.json()) as Seguimiento).id).toBe(s.id);
    expect(await t.db.select().from(seguimientos).where(eq(seguimientos.id_usuario, ana.id))).toHaveLength(1);
  });

  it('follows an area and level, a colleague and a category, and lists them newest first with readable labels', async () => {
    const categoria = await insertarCategoria(t, { nombre: 'Evaluación' });
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await post(ana, '/api/seguimientos/', { tipo: 'area_nivel', area, nivel: '07' })).status).toBe(201);
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await post(ana, '/api/seguimientos/', { tipo: 'usuario', usuario: luis.id })).status).toBe(201);
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await post(ana, '/api/seguimientos/', { tipo: 'categoria', categoria })).status).toBe(201);
    const { results } = await json<{ results: Seguimiento[] }>(ana, '/api/seguimientos/');
    expect(results.map((r) => [r.tipo, r.etiqueta])).toEqual([
      ['categoria', 'Evaluación'],
      ['usuario', 'Luis Pérez'],
      ['area_nivel', 'Matemática · 7° básico'],
      ['oa', oa.codigo],
    ]);
    expect(results[1]?.url).toBe(`/perfil/${luis.id}`);
    // Another person's list is theirs.
    expect((await json<{ results: unknown[] }>(luis, '/api/seguimientos/')).results).toEqual([]);
  });

  it('refuses bad input and what one may not follow, in Spanish, writing nothing', async () => {
    const antes = (await t.db.select().from(seguimientos)).length;
    const [retirado] = await t.db
      .insert(oas)
      .values({ codigo: 'MA07 OA 99', descripcion: 'Retirado', unidad: (await unidadDe(t, 'MA', '07')).id, vigente: false })
      .returning();
    const desactivado = await t.createUser({ nombre: 'Desactivada' });
    await t.db.update(usuarios).set({ activo: false, desactivada_en: new Date() }).where(eq(usuarios.id, desactivado.id));
    const inactiva = await insertarCategoria(t, { nombre: 'Cerrada', activa: false });
    const casos: [unknown, string][] = [
      [{ tipo: 'oa', oa: 999_999 }, 'Ese OA no existe o ya no está vigente'],
      [{ tipo: 'oa', oa: retirado?.id }, 'Ese OA no existe o ya no está vigente'],
      [{ tipo: 'area_nivel', area, nivel: 'NT1' }, 'Esa área no se enseña en ese nivel'],
      [{ tipo: 'usuario', usuario: desactivado.id }, 'Esa persona no existe o no está disponible para ti'],
      [{ tipo: 'usuario', usuario: ana.id }, 'No puedes seguirte a ti mismo'],
      [{ tipo: 'categoria', categoria: inactiva }, 'Esa categoría no existe o no está disponible para ti'],
      [{ tipo: 'oa' }, 'Indica el OA que quieres seguir'],
      [{ tipo: 'area_nivel', area }, 'Indica el área y el nivel que quieres seguir'],
      [{ tipo: 'tema', oa: 1 }, 'Tipo de seguimiento no válido: use oa, area_nivel, usuario o categoria'],
      [{ tipo: 'oa', oa: 'uno' }, 'OA no válido'],
    ];
    for (const [cuerpo, mensaje] of casos) {
      const res = await post(ana, '/api/seguimientos/', cuerpo);
      expect(res.status, JSON.stringify(cuerpo)).toBe(400);
      expect(await detalle(res)).toBe(mensaje);
    }
    // An admin sees the inactive category, and may follow it.
    expect((await post(admin, '/api/seguimientos/', { tipo: 'categoria', categoria: inactiva })).status).toBe(201);
    expect((await t.db.select().from(seguimientos)).length).toBe(antes + 1);
    expect((await t.call('GET', '/api/seguimientos/')).status).toBe(401);
    expect((await t.call('POST', '/api/seguimientos/', { json: { tipo: 'oa', oa: oa.id } })).status).toBe(401);
  });

  it('caps the follows per person with a Spanish message', async () => {
    const lleno = await t.session({ nombre: 'Llena' });
    const ids = (await t.db.select({ id: oas.id }).from(oas).limit(SEGUIMIENTOS_MAX)).map((o) => o.id);
    expect(ids).toHaveLength(SEGUIMIENTOS_MAX);
    await t.db.insert(seguimientos).values(ids.map((id) => ({ id_usuario: lleno.id, tipo: 'oa' as const, clave: `oa:${id}`, id_oa: id })));
    const res = await post(lleno, '/api/seguimientos/', { tipo: 'usuario', usuario: luis.id });
    expect(res.status).toBe(400);
    expect(await detalle(res)).toBe(`Puedes seguir hasta ${SEGUIMIENTOS_MAX} cosas. Deja de seguir alguna para seguir otra.`);
    // What one already follows is still answered.
    expect((await post(lleno, '/api/seguimientos/', { tipo: 'oa', oa: ids[0] })).status).toBe(200);
  });

  it('stops only one’s own follow (204), another’s or a missing one is a 404', async () => {
    const res = await post(rosa, '/api/seguimientos/', { tipo: 'usuario', usuario: ana.id });
    const { id } = (await res.json()) as Seguimiento;
    expect((await del(luis, `/api/seguimientos/${id}/`)).status).toBe(404);
    expect((await del(rosa, '/api/seguimientos/999999/')).status).toBe(404);
    expect((await del(rosa, `/api/seguimientos/${id}/`)).status).toBe(204);
    expect((await del(rosa, `/api/seguimientos/${id}/`)).status).toBe(404);
    expect((await del(rosa, '/api/seguimientos/x/')).status).toBe(400);
  });
});

describe('notifications', () => {
  it('a new material on a followed OA reaches the follower, not its author, and more are counted in one entry', async () => {
    await subirMaterial(luis, 'Guía 1');
    let [n] = await bandeja(ana);
    // Ana follows the OA and Luis: one notification for the material, from the OA (the most specific).
    expect(await bandeja(ana)).toHaveLength(1);
    expect(n?.texto).toBe(`Nuevo material para ${oa.codigo}`);
    expect(n?.enlace).toMatch(/^\/biblioteca-docente\/\d+$/);
    expect(await bandeja(luis)).toEqual([]);

    await subirMaterial(luis, 'Guía 2');
    await subirMaterial(rosa, 'Guía 3');
    const entradas = await bandeja(ana);
    expect(entradas).toHaveLength(1);
    [n] = entradas;
    expect(n?.texto).toBe(`3 materiales nuevos para ${oa.codigo}`);
    expect(n?.enlace).toBe(`/biblioteca-docente/oa/${encodeURIComponent(oa.codigo)}`);
    expect(await t.db.select().from(notificaciones).where(eq(notificaciones.id_usuario, ana.id))).toHaveLength(1);

    // Once read, the next one starts a new entry.
    expect((await post(ana, '/api/notificaciones/leidas/', {})).status).toBe(200);
    await subirMaterial(rosa, 'Guía 4');
    expect((await bandeja(ana)).map((e) => e.texto)).toEqual([`Nuevo material para ${oa.codigo}`]);
    await post(ana, '/api/notificaciones/leidas/', {});
  });

  it('never for a hidden material, a capsule not ready or a conversation in a category one may not see', async () => {
    const id = await subirMaterial(luis, 'Guía que se ocultará');
    await post(ana, '/api/notificaciones/leidas/', {});
    await t.db.update(materiales).set({ oculto: true }).where(eq(materiales.id, id));
    expect(await avisarNovedad({ db: t.db, now: () => t.clock.now, log: silencio }, { tipo: 'material', id })).toBe(0);
    const procesando = await insertarCapsula(t, luis, 'Aún procesando', { estado: 'procesando', codigo_nivel: '07', id_area: area });
    expect(await avisarNovedad({ db: t.db, now: () => t.clock.now, log: silencio }, { tipo: 'capsula', id: procesando })).toBe(0);
    expect(await bandeja(ana)).toEqual([]);
    // Ready, it reaches Ana through her follow of Luis.
    await t.db.update(capsulas).set({ estado: 'listo' }).where(eq(capsulas.id, procesando));
    expect(await avisarNovedad({ db: t.db, now: () => t.clock.now, log: silencio }, { tipo: 'capsula', id: procesando })).toBe(1);
    expect((await bandeja(ana)).map((e) => e.texto)).toEqual(['Nueva cápsula de Luis Pérez']);
    await post(ana, '/api/notificaciones/leidas/', {});
  });

  it('a new conversation in a followed category reaches its followers; one in an inactive category reaches no one', async () => {
    const [{ categoria } = { categoria: 0 }] = await t.db
      .select({ categoria: seguimientos.id_categoria })
      .from(seguimientos)
      .where(and(eq(seguimientos.id_usuario, ana.id), eq(seguimientos.tipo, 'categoria')));
    const res = await t.call('POST', '/api/foro/conversacion/nueva/', {
      token: rosa.token,
      json: { id_usuario: rosa.id, titulo: '¿Rúbricas?', contenido: 'Compartamos', id_categoria: categoria },
    });
    expect(res.status).toBe(201);
    expect((await bandeja(ana)).map((e) => e.texto)).toEqual(['Nueva conversación en «Evaluación»']);
    await post(ana, '/api/notificaciones/leidas/', {});
    // The admin follows an inactive category: an admin's conversation there tells no one.
    const [inactiva] = await t.db
      .select({ categoria: seguimientos.id_categoria })
      .from(seguimientos)
      .where(and(eq(seguimientos.id_usuario, admin.id), eq(seguimientos.tipo, 'categoria')));
    const otra = await t.call('POST', '/api/foro/conversacion/nueva/', {
      token: admin.token,
      json: { id_usuario: admin.id, titulo: 'Interna', contenido: 'Solo admins', id_categoria: inactiva?.categoria },
    });
    expect(otra.status).toBe(201);
    expect(await bandeja(admin)).toEqual([]);
  });

  it('the daily digest carries each follow with its own stop link, which works without signing in', async () => {
    await t.db.update(usuarios).set({ preferencia_correo: 'diario', resumen_enviado: null }).where(eq(usuarios.id, ana.id));
    await subirMaterial(luis, 'Guía 5');
    await subirMaterial(luis, 'Guía 6');
    t.clock.now = new Date('2026-11-25T12:00:00Z'); // 09:00 in Santiago
    ana.token = (await t.login(ana.email)).access;
    await t.jobs.enqueue(TRABAJO_CORREOS, {});
    await t.jobs.drain();
    await t.jobs.drainMail();
    const correo = t.mails.filter((m) => m.to === ana.email).at(-1);
    expect(correo?.text).toContain(`2 materiales nuevos para ${oa.codigo}`);
    // The mail's own link is the general unsubscribe (its List-Unsubscribe header); each follow has its stop link.
    expect(correo?.link).toMatch(/\/api\/notificaciones\/baja\//);
    const enlace = /Dejar de seguir: (http\S+)/.exec(correo?.text ?? '')?.[1] ?? '';
    expect(enlace).toMatch(/^http:\/\/localhost:4321\/api\/seguimientos\/dejar\/[\w.-]+\/$/);
    expect(correo?.html).toContain(`href="${enlace}"`);
    const ruta = new URL(enlace).pathname;

    // GET only asks; POST stops it, without a session; a forged link is a 400.
    const pagina = await t.call('GET', ruta);
    expect(pagina.status).toBe(200);
    expect(await pagina.text()).toContain(oa.codigo);
    expect((await json<{ results: Seguimiento[] }>(ana, '/api/seguimientos/')).results.map((s) => s.tipo)).toContain('oa');
    const hecho = await t.call('POST', ruta);
    expect(hecho.status).toBe(200);
    expect(await hecho.text()).toContain('Ya no sigues');
    expect((await json<{ results: Seguimiento[] }>(ana, '/api/seguimientos/')).results.map((s) => s.tipo)).not.toContain('oa');
    // Its notification went with it; the link now names nothing.
    expect((await bandeja(ana)).map((e) => e.texto)).toEqual([]);
    expect((await t.call('POST', ruta)).status).toBe(400);
    expect((await t.call('GET', ruta.replace(/\.[\w-]+\/$/, '.forjado/'))).status).toBe(400);
  });

  it('the erasure of an account removes its follows and others’ follows of it', async () => {
    const baja = await t.session({ nombre: 'Baja' });
    await post(baja, '/api/seguimientos/', { tipo: 'usuario', usuario: luis.id });
    await post(rosa, '/api/seguimientos/', { tipo: 'usuario', usuario: baja.id });
    const res = await post(admin, `/api/admin/usuarios/${baja.id}/eliminar/`, { motivo: 'Carta de la docente', inmediato: true });
    expect(res.status).toBe(202);
    const quedan = await t.db.select().from(seguimientos);
    expect(quedan.filter((s) => s.id_usuario === baja.id || s.id_seguido === baja.id)).toEqual([]);
  });

  it("a 'cada vez' person gets one mail per follow while unread, however many items it counts", async () => {
    const eva = await t.session({ nombre: 'Eva' });
    await t.db.update(usuarios).set({ preferencia_correo: 'cada_vez' }).where(eq(usuarios.id, eva.id));
    expect((await post(eva, '/api/seguimientos/', { tipo: 'usuario', usuario: rosa.id })).status).toBe(201);
    const correr = async () => {
      await t.jobs.enqueue(TRABAJO_CORREOS, {});
      await t.jobs.drain();
      await t.jobs.drainMail();
    };
    await subirMaterial(rosa, 'Guía de Rosa 1');
    await correr();
    const deEva = () => t.mails.filter((m) => m.to === eva.email);
    expect(deEva()).toHaveLength(1);
    expect(deEva()[0]?.subject).toMatch(/^Nuevo material de Rosa Pérez/);
    expect(deEva()[0]?.text).toMatch(/Dejar de seguir: http:\/\/localhost:4321\/api\/seguimientos\/dejar\//);
    await subirMaterial(rosa, 'Guía de Rosa 2');
    await correr();
    expect(deEva()).toHaveLength(1);
    eva.token = (await t.login(eva.email)).access;
    expect((await bandeja(eva)).map((e) => e.texto)).toEqual(['2 materiales nuevos de Rosa Pérez']);
  });
});

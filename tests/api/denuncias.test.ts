/**
 * Reports and moderation (issue 17): a signed-in person reports any item they can see, once ever
 * and never their own; three reports from different people hide it and tell its author; the
 * admin's queue groups the reports by item with a preview; each decision (ocultar, restaurar,
 * eliminar, descartar) acts on the item, closes every open report of it, tells the author and
 * the people who reported it, and goes to the audit log. Every response is checked against
 * openapi.yaml by `t.call`.
 */
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  capsulas,
  comentarios,
  denuncias,
  foroComentarios,
  foroConversaciones,
  limitesIntentos,
  manuales,
  registroAdmin,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { crearVerificador, resolverHerramientas } from '../../src/lib/server/media/herramientas.server.ts';
import { createDenunciasService } from '../../src/lib/server/services/denuncias.server.ts';
import { CLAVE_LOCAL } from '../../src/lib/server/services/registro.server.ts';
import { TIPOS_DENUNCIA, type TipoDenuncia } from '../../src/lib/validation/denuncias.ts';
import { ADMIN_KEY, CONFIG_PRUEBA, createTestApi, type TestApi } from '../support/api.ts';
import {
  insertarCapsula,
  insertarCategoria,
  insertarConversacion,
  insertarManual,
  insertarMaterial,
  type Sesion,
} from '../support/contenido.ts';

interface Item {
  id: number;
  tipo: string;
  id_recurso: number;
  existe: boolean;
  oculto: boolean;
  titulo: string;
  texto: string;
  enlace: string | null;
  autor: { id: number } | null;
  n_denuncias: number;
  denuncias: { id: number; motivo: string; detalle: string; denunciante: { id: number } }[];
  resolucion: { accion: string; motivo: string; admin: string } | null;
}
interface Notificacion {
  tipo: string;
  recurso_tipo: string;
  id_recurso: number;
  texto: string;
  enlace: string;
}

let t: TestApi;
let admin: Sesion;
/** The author of everything reported. */
let ana: Sesion;
/** Three colleagues who report. */
let luis: Sesion;
let rosa: Sesion;
let pedro: Sesion;
const cat = { categoria: 0, inactiva: 0 };

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Marta' });
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  rosa = await t.session({ nombre: 'Rosa' });
  pedro = await t.session({ nombre: 'Pedro' });
  cat.categoria = await insertarCategoria(t);
  cat.inactiva = await insertarCategoria(t, { nombre: 'Archivada', descripcion: 'Cerrada', activa: false });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(limitesIntentos);
});

// ── Items to report, all written by `autor` (Ana unless said) ─────────────────────────────────

const id = (filas: { id: number }[]) => filas[0]?.id ?? 0;

const capsula = (autor = ana, extra: Partial<typeof capsulas.$inferInsert> = {}) =>
  insertarCapsula(t, autor, 'Fracciones con chocolate', { descripcion: 'Una **clase** para 4° básico', ...extra });
const material = (autor = ana) => insertarMaterial(t, autor, 'Guía de lectura', { descripcion: 'Guía' });
const manual = (autor = ana) => insertarManual(t, autor, 'Manual de convivencia', { autor: 'Ana', descripcion: 'Normas' });
type Recurso = 'capsula' | 'material' | 'manual';
const crear = { capsula, material, manual };
async function comentario(recurso: Recurso, idRecurso: number, autor = ana, padre: number | null = null, contenido = 'Qué buena idea') {
  const columna =
    recurso === 'capsula' ? { id_capsula: idRecurso } : recurso === 'material' ? { id_material: idRecurso } : { id_manual: idRecurso };
  return id(
    await t.db
      .insert(comentarios)
      .values({ contenido, id_usuario: autor.id, id_respuesta_comentario: padre, ...columna })
      .returning(),
  );
}
const conversacion = (autor = ana, categoria = cat.categoria) =>
  insertarConversacion(t, categoria, autor, 'Recreos sin pantallas', {
    contenido: '<p>¿Qué <strong>opinan</strong> de los recreos &amp; el celular?</p>',
  });
async function comentarioForo(idConversacion: number, autor = ana, padre: number | null = null) {
  return id(
    await t.db
      .insert(foroComentarios)
      .values({ id_conversacion: idConversacion, id_usuario: autor.id, comentario_padre: padre, contenido: 'Estoy de acuerdo' })
      .returning(),
  );
}
async function perfil() {
  return (await t.session({ nombre: 'Carla' })) satisfies Sesion;
}

/** A fresh item of each kind, written by Ana (the profile: a fresh person's). */
async function nuevo(tipo: TipoDenuncia): Promise<{ id: number; autor: Sesion }> {
  switch (tipo) {
    case 'capsula':
    case 'material':
    case 'manual':
      return { id: await crear[tipo](), autor: ana };
    case 'comentario_capsula':
      return { id: await comentario('capsula', await capsula()), autor: ana };
    case 'comentario_material':
      return { id: await comentario('material', await material()), autor: ana };
    case 'comentario_manual':
      return { id: await comentario('manual', await manual()), autor: ana };
    case 'conversacion':
      return { id: await conversacion(), autor: ana };
    case 'comentario_foro':
      return { id: await comentarioForo(await conversacion()), autor: ana };
    default: {
      const carla = await perfil();
      return { id: carla.id, autor: carla };
    }
  }
}

// ── Calls ──────────────────────────────────────────────────────────────────────────────────────

const denunciar = (quien: Sesion | null, json: unknown) =>
  t.call('POST', '/api/denuncias/', { ...(quien ? { token: quien.token } : {}), json });
async function denunciado(quien: Sesion, tipo: TipoDenuncia, idItem: number, motivo = 'spam', detalle = '') {
  const res = await denunciar(quien, { tipo, id: idItem, motivo, ...(detalle ? { detalle } : {}) });
  expect(res.status, `${tipo} ${idItem}`).toBe(201);
  return (await res.json()) as { id: number; tipo: string; id_recurso: number; motivo: string; detalle: string; oculto: boolean };
}
const resolver = (idDenuncia: number, json: unknown, quien: Sesion | 'clave' = admin) =>
  t.call(
    'POST',
    `/api/admin/denuncias/${idDenuncia}/resolver/`,
    quien === 'clave' ? { headers: { 'x-admin-key': ADMIN_KEY }, json } : { token: quien.token, json },
  );
async function resuelto(idDenuncia: number, accion: string, motivo = '', quien: Sesion | 'clave' = admin): Promise<Item> {
  const res = await resolver(idDenuncia, { accion, ...(motivo ? { motivo } : {}) }, quien);
  expect(res.status).toBe(200);
  return res.json();
}
/** Every entry of the queue in that state, across its pages. */
async function cola(estado: 'abierta' | 'resuelta'): Promise<Item[]> {
  const todas: Item[] = [];
  for (let pagina = 1; ; pagina++) {
    const res = await t.call('GET', `/api/admin/denuncias/?estado=${estado}&pagina=${pagina}`, { token: admin.token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: Item[]; num_pages: number };
    todas.push(...body.items);
    if (pagina >= body.num_pages) return todas;
  }
}
async function avisos(quien: Sesion): Promise<Notificacion[]> {
  const res = await t.call('GET', '/api/notificaciones/', { token: quien.token });
  expect(res.status).toBe(200);
  return (await res.json()).notificaciones;
}
const avisoDe = async (quien: Sesion, tipo: string, recurso_tipo: string, idRecurso: number) =>
  (await avisos(quien)).find((n) => n.tipo === tipo && n.recurso_tipo === recurso_tipo && n.id_recurso === idRecurso);
/** Every report, open or not, of capsule `c`. */
const denunciasDeCapsula = (c: number) =>
  t.db
    .select()
    .from(denuncias)
    .where(and(eq(denuncias.tipo, 'capsula'), eq(denuncias.id_recurso, c)));
const oculto = async (tipo: 'capsula' | 'comentario' | 'conversacion', idItem: number) => {
  const tabla = tipo === 'capsula' ? capsulas : tipo === 'comentario' ? comentarios : foroConversaciones;
  const [fila] = await t.db.select({ oculto: tabla.oculto }).from(tabla).where(eq(tabla.id, idItem));
  return fila?.oculto;
};

describe('reporting', () => {
  it('takes a report of each of the nine kinds, 201 with the report and the item not hidden yet', async () => {
    for (const tipo of TIPOS_DENUNCIA) {
      const item = await nuevo(tipo);
      const d = await denunciado(luis, tipo, item.id, 'ofensivo', '  Insulta a un colega  ');
      expect(d).toMatchObject({ tipo, id_recurso: item.id, motivo: 'ofensivo', detalle: 'Insulta a un colega', oculto: false });
      const filas = await t.db.select().from(denuncias).where(eq(denuncias.id, d.id));
      expect(filas[0]).toMatchObject({ tipo, id_recurso: item.id, id_usuario: luis.id, estado: 'abierta' });
    }
  });

  it("refuses a second report of the same item by the same person, ever: 409 'Ya denunciaste este contenido.'", async () => {
    const c = await capsula();
    const primera = await denunciado(luis, 'capsula', c);
    const otra = await denunciar(luis, { tipo: 'capsula', id: c, motivo: 'otro' });
    expect(otra.status).toBe(409);
    expect((await otra.json()).detail).toBe('Ya denunciaste este contenido.');
    // Not even after an admin decided.
    await resuelto(primera.id, 'descartar');
    const despues = await denunciar(luis, { tipo: 'capsula', id: c, motivo: 'spam' });
    expect(despues.status).toBe(409);
    expect(await denunciasDeCapsula(c)).toHaveLength(1);
  });

  it('takes one of two identical reports sent at once; the other is 409', async () => {
    const c = await capsula();
    const respuestas = await Promise.all([1, 2].map(() => denunciar(rosa, { tipo: 'capsula', id: c, motivo: 'spam' })));
    expect(respuestas.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await denunciasDeCapsula(c)).toHaveLength(1);
  });

  it("refuses one's own item: 400 'No puedes denunciar tu propio contenido.'", async () => {
    for (const tipo of TIPOS_DENUNCIA) {
      const item = await nuevo(tipo);
      const res = await denunciar(item.autor, { tipo, id: item.id, motivo: 'spam' });
      expect(res.status, tipo).toBe(400);
      expect((await res.json()).detail).toBe('No puedes denunciar tu propio contenido.');
    }
  });

  it('answers bad input with 400 and a Spanish message, never 500', async () => {
    const c = await capsula();
    const casos: [unknown, string][] = [
      [{ tipo: 'capsula', id: c, motivo: 'aburrido' }, 'Elige un motivo'],
      [{ tipo: 'capsula', id: c }, 'Elige un motivo'],
      [{ tipo: 'foto', id: c, motivo: 'spam' }, 'Tipo de contenido no válido'],
      [{ tipo: 'capsula', id: 0, motivo: 'spam' }, 'Identificador no válido'],
      [{ tipo: 'capsula', id: 'abc', motivo: 'spam' }, 'Identificador no válido'],
      [{ tipo: 'capsula', id: 1.5, motivo: 'spam' }, 'Identificador no válido'],
      [{ tipo: 'capsula', id: c, motivo: 'otro', detalle: 'x'.repeat(1001) }, 'Puede ingresar hasta 1000 caracteres'],
      [{ tipo: 'capsula', id: c, motivo: 'otro', detalle: 'a\u0000b' }, 'El texto contiene caracteres no permitidos'],
    ];
    for (const [json, mensaje] of casos) {
      const res = await denunciar(luis, json);
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect((await res.json()).detail).toBe(mensaje);
    }
    expect(await denunciasDeCapsula(c)).toHaveLength(0);
  });

  it("answers 404 with the section's message for an unknown item or one the person cannot see", async () => {
    const noExiste: [TipoDenuncia, string][] = [
      ['capsula', 'No se encontró capsula'],
      ['material', 'No se encontró material'],
      ['manual', 'No se encontró manual'],
      ['comentario_capsula', 'No se encontró comentario'],
      ['comentario_material', 'No se encontró comentario'],
      ['comentario_manual', 'No se encontró comentario'],
      ['conversacion', 'No se encontró conversación'],
      ['comentario_foro', 'No se encontró comentario'],
      ['usuario', 'Usuario no encontrado'],
    ];
    for (const [tipo, mensaje] of noExiste) {
      const res = await denunciar(luis, { tipo, id: 999_999, motivo: 'spam' });
      expect(res.status, tipo).toBe(404);
      expect((await res.json()).detail).toBe(mensaje);
    }
    const enManual = await comentario('manual', await manual());
    const invisibles: [TipoDenuncia, number][] = [
      // A comment on a manual is no capsule comment.
      ['comentario_capsula', enManual],
      ['capsula', await capsula(ana, { estado: 'procesando' })],
      ['capsula', await capsula(ana, { oculto: true })],
      ['comentario_capsula', await comentario('capsula', await capsula(ana, { oculto: true }), rosa)],
      ['conversacion', await conversacion(ana, cat.inactiva)],
    ];
    const [eliminado] = await t.db
      .insert(comentarios)
      .values({ contenido: '', eliminado: true, id_usuario: ana.id, id_manual: await manual() })
      .returning();
    invisibles.push(['comentario_manual', eliminado?.id ?? 0]);
    const baja = await t.createUser({ nombre: 'Baja' });
    await t.db.update(usuarios).set({ activo: false, desactivada_en: new Date() }).where(eq(usuarios.id, baja.id));
    invisibles.push(['usuario', baja.id]);
    for (const [tipo, idItem] of invisibles) {
      expect((await denunciar(luis, { tipo, id: idItem, motivo: 'spam' })).status, `${tipo} ${idItem}`).toBe(404);
    }
  });

  it('answers 401 to someone signed out', async () => {
    const res = await denunciar(null, { tipo: 'capsula', id: await capsula(), motivo: 'spam' });
    expect(res.status).toBe(401);
  });

  it('hides the item at the third report from different people and tells its author', async () => {
    const conv = await conversacion();
    expect((await denunciado(luis, 'conversacion', conv)).oculto).toBe(false);
    expect((await denunciado(rosa, 'conversacion', conv)).oculto).toBe(false);
    expect(await oculto('conversacion', conv)).toBe(false);
    expect((await denunciado(pedro, 'conversacion', conv)).oculto).toBe(true);
    expect(await oculto('conversacion', conv)).toBe(true);
    const aviso = await avisoDe(ana, 'oculto', 'conversacion', conv);
    expect(aviso?.texto).toBe(
      'Tu conversación «Recreos sin pantallas» fue ocultada por moderación. Motivo: Varias personas lo denunciaron; un administrador lo revisará.',
    );
    expect(aviso?.enlace).toBe(`/foro/categorias/${cat.categoria}/conversacion/${conv}`);
    // Hidden, it is its author's and the admins' only: a fourth colleague cannot see it to report it.
    const otro = await t.session({ nombre: 'Jorge' });
    expect((await denunciar(otro, { tipo: 'conversacion', id: conv, motivo: 'spam' })).status).toBe(404);
    expect((await denunciar(admin, { tipo: 'conversacion', id: conv, motivo: 'spam' })).status).toBe(201);
    expect((await avisos(ana)).filter((n) => n.tipo === 'oculto' && n.id_recurso === conv)).toHaveLength(1);
  });
});

describe('the threshold setting', () => {
  it('hides at DENUNCIAS_PARA_OCULTAR reports: with 1, the first report hides', async () => {
    const { capsulas: c, biblioteca, manuales: m, foro, adminUsuarios } = t.api.services;
    const servicio = createDenunciasService(
      {
        db: t.db,
        log: createLogger('silent'),
        config: { ...CONFIG_PRUEBA, DENUNCIAS_PARA_OCULTAR: 1 },
        storage: t.storage,
        herramientas: crearVerificador(resolverHerramientas()),
        jobs: t.jobs,
        jwtSecret: 'test-secret-that-is-long-enough-0123456789',
        now: () => new Date(),
      },
      { capsulas: c, biblioteca, manuales: m, foro, adminUsuarios },
    );
    const idManual = await manual();
    const d = await servicio.denunciar({ id: luis.id, groups: [] }, { tipo: 'manual', id: idManual, motivo: 'spam', detalle: '' });
    expect(d.oculto).toBe(true);
    expect((await t.db.select().from(manuales).where(eq(manuales.id, idManual)))[0]?.oculto).toBe(true);
    expect(await avisoDe(ana, 'oculto', 'manual', idManual)).toBeDefined();
  });
});

describe('the moderation queue', () => {
  it("answers a teacher 403 'No tienes permisos' and no token 401", async () => {
    const d = await denunciado(luis, 'manual', await manual());
    for (const [method, path, json] of [
      ['GET', '/api/admin/denuncias/', undefined],
      ['POST', `/api/admin/denuncias/${d.id}/resolver/`, { accion: 'ocultar' }],
    ] as const) {
      const prohibido = await t.call(method, path, { token: luis.token, ...(json ? { json } : {}) });
      expect(prohibido.status, path).toBe(403);
      expect((await prohibido.json()).detail).toBe('No tienes permisos');
      expect((await t.call(method, path, json ? { json } : {})).status, path).toBe(401);
    }
    expect((await t.db.select().from(denuncias).where(eq(denuncias.id, d.id)))[0]?.estado).toBe('abierta');
  });

  it('groups open reports by item, the most reported first, with a preview', async () => {
    const primero = await capsula();
    const conv = await conversacion();
    const c1 = await denunciado(luis, 'capsula', primero, 'spam', 'Publicidad');
    const c2 = await denunciado(luis, 'conversacion', conv, 'ofensivo');
    await denunciado(rosa, 'conversacion', conv, 'inapropiado', 'Muy feo');
    const items = await cola('abierta');
    const deCapsula = items.find((i) => i.tipo === 'capsula' && i.id_recurso === primero);
    const deConv = items.find((i) => i.tipo === 'conversacion' && i.id_recurso === conv);
    if (!deCapsula || !deConv) throw new Error('entries missing');
    expect(items.indexOf(deConv)).toBeLessThan(items.indexOf(deCapsula));
    expect(deCapsula).toMatchObject({
      id: c1.id,
      existe: true,
      oculto: false,
      titulo: 'Fracciones con chocolate',
      texto: 'Una clase para 4° básico',
      enlace: `/capsulas/${primero}`,
      autor: { id: ana.id },
      n_denuncias: 1,
      resolucion: null,
    });
    expect(deCapsula.denuncias).toEqual([
      expect.objectContaining({ id: c1.id, motivo: 'spam', detalle: 'Publicidad', denunciante: expect.objectContaining({ id: luis.id }) }),
    ]);
    expect(deConv).toMatchObject({ id: c2.id, n_denuncias: 2, texto: '¿Qué opinan de los recreos & el celular?' });
    expect(deConv.denuncias.map((d) => d.denunciante.id)).toEqual([luis.id, rosa.id]);

    const idCapsula = await capsula();
    const enCapsula = await comentario('capsula', idCapsula, ana, null, 'Esto es **spam** comprado');
    await denunciado(rosa, 'comentario_capsula', enCapsula);
    const conversacionForo = await conversacion();
    const enForo = await comentarioForo(conversacionForo);
    await denunciado(rosa, 'comentario_foro', enForo);
    const carla = await perfil();
    await denunciado(rosa, 'usuario', carla.id);
    const despues = await cola('abierta');
    expect(despues.find((i) => i.tipo === 'comentario_capsula' && i.id_recurso === enCapsula)).toMatchObject({
      titulo: 'Fracciones con chocolate',
      texto: 'Esto es spam comprado',
      enlace: `/capsulas/${idCapsula}#titulo-comentarios`,
    });
    expect(despues.find((i) => i.tipo === 'comentario_foro' && i.id_recurso === enForo)).toMatchObject({
      titulo: 'Recreos sin pantallas',
      enlace: `/foro/categorias/${cat.categoria}/conversacion/${conversacionForo}#titulo-comentarios`,
    });
    expect(despues.find((i) => i.tipo === 'usuario' && i.id_recurso === carla.id)).toMatchObject({
      titulo: 'Carla Pérez',
      enlace: `/perfil/${carla.id}`,
      autor: { id: carla.id },
    });
  });

  it("answers bad filters and actions with 400, an unknown report with 404 'No se encontró la denuncia'", async () => {
    expect((await t.call('GET', '/api/admin/denuncias/?estado=cerrada', { token: admin.token })).status).toBe(400);
    const d = await denunciado(luis, 'material', await material());
    const mala = await resolver(d.id, { accion: 'borrar' });
    expect(mala.status).toBe(400);
    expect((await mala.json()).detail).toBe('Elige una acción válida');
    const larga = await resolver(d.id, { accion: 'ocultar', motivo: 'x'.repeat(1001) });
    expect(larga.status).toBe(400);
    expect((await larga.json()).detail).toBe('Puede ingresar hasta 1000 caracteres');
    const nada = await resolver(999_999, { accion: 'ocultar' });
    expect(nada.status).toBe(404);
    expect((await nada.json()).detail).toBe('No se encontró la denuncia');
  });
});

describe('decisions', () => {
  it('ocultar hides the item, closes every open report, tells the author and each reporter, and is logged', async () => {
    const c = await capsula();
    const d1 = await denunciado(luis, 'capsula', c);
    const d2 = await denunciado(rosa, 'capsula', c);
    const hecho = await resuelto(d2.id, 'ocultar', 'Contenido comercial');
    expect(hecho).toMatchObject({
      id: d1.id,
      oculto: true,
      existe: true,
      n_denuncias: 2,
      resolucion: { accion: 'ocultar', motivo: 'Contenido comercial', admin: admin.email },
    });
    expect(await oculto('capsula', c)).toBe(true);
    const filas = await denunciasDeCapsula(c);
    expect(filas.every((f) => f.estado === 'resuelta' && f.accion === 'ocultar' && f.id_admin === admin.id && f.fecha_resolucion)).toBe(
      true,
    );
    const aviso = await avisoDe(ana, 'oculto', 'capsula', c);
    expect(aviso?.texto).toBe('Tu cápsula «Fracciones con chocolate» fue ocultada por moderación. Motivo: Contenido comercial');
    expect(aviso?.enlace).toBe(`/capsulas/${c}`);
    for (const quien of [luis, rosa]) {
      const resuelta = await avisoDe(quien, 'denuncia_resuelta', 'capsula', c);
      expect(resuelta?.texto).toBe('Tu denuncia sobre «Fracciones con chocolate» fue resuelta. Motivo: Contenido comercial');
      // Hidden now: the link leads to the notifications, not to a page they cannot see.
      expect(resuelta?.enlace).toBe('/notificaciones');
    }
    const [log] = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'capsula'), eq(registroAdmin.id_registro, c)));
    expect(log).toMatchObject({ accion: 'moderar_ocultar', admin_email: admin.email, id_admin: admin.id });
    expect(log?.detalle).toContain('«Fracciones con chocolate»');
    expect(log?.detalle).toContain('Contenido comercial');

    const otra = await resolver(d1.id, { accion: 'restaurar' });
    expect(otra.status).toBe(409);
    expect((await otra.json()).detail).toBe('Esta denuncia ya fue resuelta.');
    expect(await oculto('capsula', c)).toBe(true);

    const resueltas = await cola('resuelta');
    expect(resueltas.find((i) => i.tipo === 'capsula' && i.id_recurso === c)).toMatchObject({ id: d1.id, n_denuncias: 2 });
    expect((await cola('abierta')).some((i) => i.tipo === 'capsula' && i.id_recurso === c)).toBe(false);
  });

  it("ocultar or eliminar without the admin's words tells the author the reports' reasons, the most given first", async () => {
    const m = await material();
    const d = await denunciado(luis, 'material', m, 'ofensivo');
    await denunciado(rosa, 'material', m, 'spam');
    await denunciado(pedro, 'material', m, 'spam');
    await resuelto(d.id, 'ocultar');
    expect((await avisoDe(ana, 'oculto', 'material', m))?.texto).toBe(
      'Tu material «Guía de lectura» fue ocultado por moderación. Motivo: Spam o publicidad, Ofensivo',
    );
    // The people who reported it get the decision without anyone's reasons.
    expect((await avisoDe(luis, 'denuncia_resuelta', 'material', m))?.texto).toBe('Tu denuncia sobre «Guía de lectura» fue resuelta.');

    const c = await capsula();
    const padre = await comentario('capsula', c, ana, null, 'Texto ofensivo');
    const d2 = await denunciado(rosa, 'comentario_capsula', padre, 'inapropiado');
    await resuelto(d2.id, 'eliminar');
    expect((await avisoDe(ana, 'eliminado', 'comentario_capsula', padre))?.texto).toBe(
      'Tu comentario en «Fracciones con chocolate» fue eliminado por moderación. Motivo: Inapropiado',
    );
  });

  it('decides once when two admins decide at the same time: one 200, the other 409', async () => {
    const otroAdmin = await t.session({ admin: true, nombre: 'Sofía' });
    const m = await material();
    const d = await denunciado(luis, 'material', m);
    const respuestas = await Promise.all([
      resolver(d.id, { accion: 'ocultar', motivo: 'Primero' }),
      resolver(d.id, { accion: 'ocultar', motivo: 'Segundo' }, otroAdmin),
    ]);
    expect(respuestas.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await avisos(ana)).filter((n) => n.tipo === 'oculto' && n.recurso_tipo === 'material' && n.id_recurso === m)).toHaveLength(1);
    const logs = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'material'), eq(registroAdmin.id_registro, m)));
    expect(logs).toHaveLength(1);
  });

  it("names a decision by an admin whose account was erased since as the audit log does: 'Cuenta n.º N'", async () => {
    const saliente = await t.session({ admin: true, nombre: 'Inés' });
    const m = await material();
    const d = await denunciado(luis, 'material', m);
    expect((await resuelto(d.id, 'descartar', 'No infringe las normas', saliente)).resolucion?.admin).toBe(saliente.email);
    await t.api.services.baja.borrar(saliente.id);
    const etiqueta = `Cuenta n.º ${saliente.id}`;
    const decidida = (await cola('resuelta')).find((i) => i.tipo === 'material' && i.id_recurso === m);
    expect(decidida?.resolucion).toMatchObject({ accion: 'descartar', motivo: 'No infringe las normas', admin: etiqueta });
    expect(JSON.stringify(decidida)).not.toContain('eliminada.invalid');
    const [log] = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'material'), eq(registroAdmin.id_registro, m)));
    expect(log?.admin_email).toBe(etiqueta);
  });

  it('restaurar shows an item the reports hid and tells its author', async () => {
    const m = await comentario('manual', await manual(), ana, null, 'Opinión fuerte');
    const d = await denunciado(luis, 'comentario_manual', m);
    await denunciado(rosa, 'comentario_manual', m);
    expect((await denunciado(pedro, 'comentario_manual', m)).oculto).toBe(true);
    const hecho = await resuelto(d.id, 'restaurar', 'No infringe las normas');
    expect(hecho).toMatchObject({ oculto: false, n_denuncias: 3, resolucion: { accion: 'restaurar' } });
    expect(await oculto('comentario', m)).toBe(false);
    const aviso = await avisoDe(ana, 'restaurado', 'comentario_manual', m);
    expect(aviso?.texto).toBe('Tu comentario en «Manual de convivencia» fue restaurado. Motivo: No infringe las normas');
    expect((await avisoDe(pedro, 'denuncia_resuelta', 'comentario_manual', m))?.texto).toBe(
      'Tu denuncia sobre un comentario en «Manual de convivencia» fue resuelta. Motivo: No infringe las normas',
    );
  });

  it('descartar closes the reports and un-hides the item the reports hid; a visible one stays, its author not bothered', async () => {
    const conv = await conversacion();
    const d = await denunciado(luis, 'conversacion', conv);
    await denunciado(rosa, 'conversacion', conv);
    await denunciado(pedro, 'conversacion', conv);
    expect(await oculto('conversacion', conv)).toBe(true);
    expect((await resuelto(d.id, 'descartar')).oculto).toBe(false);
    expect(await oculto('conversacion', conv)).toBe(false);
    expect((await avisoDe(ana, 'restaurado', 'conversacion', conv))?.texto).toBe('Tu conversación «Recreos sin pantallas» fue restaurada.');
    expect((await avisoDe(luis, 'denuncia_resuelta', 'conversacion', conv))?.enlace).toBe(
      `/foro/categorias/${cat.categoria}/conversacion/${conv}`,
    );

    const visible = await material();
    const d2 = await denunciado(luis, 'material', visible);
    await resuelto(d2.id, 'descartar', 'Sin problema');
    expect(await avisoDe(ana, 'restaurado', 'material', visible)).toBeUndefined();
    expect(await avisoDe(luis, 'denuncia_resuelta', 'material', visible)).toBeDefined();
  });

  it("eliminar leaves a comment that has replies as 'Comentario eliminado'", async () => {
    const c = await capsula();
    const padre = await comentario('capsula', c, ana, null, 'Texto ofensivo');
    await comentario('capsula', c, luis, padre, 'No digas eso');
    const d = await denunciado(luis, 'comentario_capsula', padre, 'ofensivo');
    const hecho = await resuelto(d.id, 'eliminar', 'Lenguaje ofensivo');
    expect(hecho).toMatchObject({ existe: false, enlace: null, titulo: 'Fracciones con chocolate', autor: { id: ana.id } });
    const [fila] = await t.db.select().from(comentarios).where(eq(comentarios.id, padre));
    expect(fila).toMatchObject({ eliminado: true, contenido: '' });
    const res = await t.call('GET', `/api/capsulas/comentarios/${c}/`, { token: rosa.token });
    expect(res.status).toBe(200);
    const { comentarios_base } = (await res.json()) as { comentarios_base: { id: number; eliminado: boolean; contenido: string }[] };
    expect(comentarios_base.find((x) => x.id === padre)).toMatchObject({ eliminado: true, contenido: '' });
    const aviso = await avisoDe(ana, 'eliminado', 'comentario_capsula', padre);
    expect(aviso?.texto).toBe('Tu comentario en «Fracciones con chocolate» fue eliminado por moderación. Motivo: Lenguaje ofensivo');
    expect(aviso?.enlace).toBe('/notificaciones');
    // One audit row per decision: the moderation's.
    const logs = await t.db.select().from(registroAdmin).where(eq(registroAdmin.id_registro, padre));
    expect(logs.map((l) => l.accion)).toEqual(['moderar_eliminar']);
  });

  it('eliminar deletes content through its section (rows and files) and a forum comment without replies', async () => {
    const c = await capsula();
    await t.storage.write(`capsulas/${c}/poster.jpg`, Readable.from([Buffer.from('jpg')]));
    const d = await denunciado(rosa, 'capsula', c);
    const hecho = await resuelto(d.id, 'eliminar', 'Material con derechos de autor', 'clave');
    expect(hecho).toMatchObject({
      existe: false,
      enlace: null,
      titulo: 'Fracciones con chocolate',
      resolucion: { accion: 'eliminar', admin: CLAVE_LOCAL },
    });
    expect(await t.db.select().from(capsulas).where(eq(capsulas.id, c))).toHaveLength(0);
    expect(await t.storage.size(`capsulas/${c}/poster.jpg`)).toBeFalsy();
    expect((await avisoDe(ana, 'eliminado', 'capsula', c))?.texto).toBe(
      'Tu cápsula «Fracciones con chocolate» fue eliminada por moderación. Motivo: Material con derechos de autor',
    );
    const [log] = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'capsula'), eq(registroAdmin.id_registro, c)));
    expect(log).toMatchObject({ accion: 'moderar_eliminar', admin_email: CLAVE_LOCAL, id_admin: null });

    const conv = await conversacion();
    const cf = await comentarioForo(conv);
    const d2 = await denunciado(luis, 'comentario_foro', cf);
    await resuelto(d2.id, 'eliminar');
    expect(await t.db.select().from(foroComentarios).where(eq(foroComentarios.id, cf))).toHaveLength(0);
    expect((await avisoDe(luis, 'denuncia_resuelta', 'comentario_foro', cf))?.enlace).toBe('/notificaciones');
  });

  it('eliminar of a profile deactivates the account, as /admin/usuarios does', async () => {
    const carla = await perfil();
    const d = await denunciado(luis, 'usuario', carla.id, 'spam', 'Cuenta falsa');
    const hecho = await resuelto(d.id, 'eliminar', 'Cuenta falsa');
    expect(hecho).toMatchObject({ tipo: 'usuario', titulo: 'Carla Pérez' });
    const [fila] = await t.db.select().from(usuarios).where(eq(usuarios.id, carla.id));
    expect(fila?.activo).toBe(false);
    expect(fila?.desactivada_en).not.toBeNull();
    expect((await t.call('GET', '/api/notificaciones/', { token: carla.token })).status).toBe(401);
    const logs = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'usuario'), eq(registroAdmin.id_registro, carla.id)));
    expect(logs.map((l) => l.accion).sort()).toEqual(['desactivar', 'moderar_eliminar']);
  });
});

/**
 * Notifications (issue 17): every event, grouping, no self-notification, marking as read,
 * permissions, the email preference, and the digest job against a real SMTP server with a
 * one-click unsubscribe link that works without signing in.
 */
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificaciones, trabajos, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createMailer } from '../../src/lib/server/mail/mailer.server.ts';
import { TRABAJO_CORREOS } from '../../src/lib/server/services/notificaciones.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCategoria, insertarConversacion, insertarManual, type Sesion } from '../support/contenido.ts';
import { freePort } from '../support/server.ts';

let t: TestApi;
let ana: Sesion;
let luis: Sesion;
let rosa: Sesion;
let manualId: number;
let categoriaId: number;

interface Entrada {
  id: number;
  ids: number[];
  tipo: string;
  texto: string;
  enlace: string;
  leida: boolean;
  actores: { id: number }[];
}
interface Lista {
  notificaciones: Entrada[];
  no_leidas: number;
  num_results: number;
}

const lista = async (s: Sesion, q = ''): Promise<Lista> => {
  const res = await t.call('GET', `/api/notificaciones/${q}`, { token: s.token });
  expect(res.status).toBe(200);
  return res.json();
};
const leer = (s: Sesion, ids?: number[]) => t.call('POST', '/api/notificaciones/leidas/', { token: s.token, json: ids ? { ids } : {} });
const todasLeidas = async (s: Sesion) => expect((await leer(s)).status).toBe(200);

async function comentarManual(s: Sesion, contenido: string, padre?: number): Promise<{ id: number }> {
  const res = await t.call('POST', '/api/manuales/comentarios/', {
    token: s.token,
    json: {
      id_usuario: s.id,
      contenido,
      id_recurso: manualId,
      tipo_recurso: 'id_manual',
      ...(padre ? { id_respuesta_comentario: padre } : {}),
    },
  });
  expect(res.status).toBe(201);
  return res.json();
}
const meGusta = (s: Sesion, add: boolean) =>
  t.call('POST', '/api/manuales/like/', { token: s.token, json: { id_usuario: s.id, id_manual: manualId, add } });

async function conversacion(autor: Sesion, titulo: string) {
  return { id: await insertarConversacion(t, categoriaId, autor, titulo, { contenido: 'Hola' }), id_categoria: categoriaId };
}
async function comentarForo(s: Sesion, conv: { id: number; id_categoria: number }, contenido: string, padre: number | null = null) {
  const res = await t.call('POST', '/api/foro/conversacion/comentar/', {
    token: s.token,
    json: { id_conversacion: conv.id, id_categoria: conv.id_categoria, contenido, comentario_padre: padre },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}
const reaccionar = (s: Sesion, id: number, id_like: number, action: 'like' | 'remove_like' = 'like') =>
  t.call('POST', '/api/foro/conversacion/like/', { token: s.token, json: { id_conversacion: id, id_like, action } });
const reaccionarComentario = (s: Sesion, id: number, id_like: number, action: 'like' | 'remove_like' = 'like') =>
  t.call('POST', '/api/foro/comentario/like/', { token: s.token, json: { id_comentario: id, id_like, action } });

beforeAll(async () => {
  t = await createTestApi();
  ana = await t.session({ nombre: 'Ana' });
  luis = await t.session({ nombre: 'Luis' });
  rosa = await t.session({ nombre: 'Rosa' });
  manualId = await insertarManual(t, ana, 'Manual de lectura');
  categoriaId = await insertarCategoria(t);
});
afterAll(() => t.close());

describe('events', () => {
  it("a comment on my content notifies me, a reply notifies the parent's author, never oneself", async () => {
    const base = await comentarManual(ana, 'Mi propio comentario');
    expect((await lista(ana)).no_leidas).toBe(0);
    await comentarManual(luis, 'Respuesta de Luis', base.id);
    const { notificaciones: deAna, no_leidas } = await lista(ana, '?no_leidas=true');
    // Ana wrote both the manual and the comment: one notification, the reply.
    expect(no_leidas).toBe(1);
    expect(deAna).toHaveLength(1);
    expect(deAna[0]).toMatchObject({
      tipo: 'respuesta',
      texto: 'Luis respondió a tu comentario en «Manual de lectura»',
      enlace: `/manuales/${manualId}#titulo-comentarios`,
      leida: false,
      actores: [{ id: luis.id }],
    });
    expect((await lista(luis)).no_leidas).toBe(0);

    const deRosa = await comentarManual(rosa, 'Comentario de Rosa');
    await comentarManual(luis, 'Respuesta a Rosa', deRosa.id);
    expect((await lista(rosa)).notificaciones[0]?.texto).toBe('Luis respondió a tu comentario en «Manual de lectura»');
    const ultimas = (await lista(ana, '?no_leidas=true')).notificaciones;
    expect(ultimas.map((n) => n.tipo)).toEqual(['comentario', 'respuesta']);
    expect(ultimas[0]?.texto).toBe('Luis y 1 más comentaron tu manual «Manual de lectura»');
    expect(ultimas[0]?.actores.map((a) => a.id)).toEqual([luis.id, rosa.id]);
    await todasLeidas(ana);
    await todasLeidas(rosa);
  });

  it('a like notifies the author; taking it back removes the unread notification; liking twice notifies once', async () => {
    expect((await meGusta(luis, true)).status).toBe(200);
    expect((await meGusta(luis, true)).status).toBe(200);
    expect((await meGusta(ana, true)).status).toBe(200);
    let { notificaciones: n } = await lista(ana, '?no_leidas=true');
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({
      tipo: 'me_gusta',
      texto: 'Luis marcó «Me gusta» en tu manual «Manual de lectura»',
      ids: [expect.any(Number)],
    });
    await meGusta(luis, false);
    ({ notificaciones: n } = await lista(ana, '?no_leidas=true'));
    expect(n).toHaveLength(0);
    await meGusta(ana, false);
  });

  it('forum: comments, replies and reactions on conversations and comments, grouped', async () => {
    const conv = await conversacion(ana, 'Evaluación formativa');
    const c1 = await comentarForo(luis, conv, 'Buena idea');
    await comentarForo(ana, conv, 'Gracias', c1.id);
    expect((await lista(luis, '?no_leidas=true')).notificaciones[0]).toMatchObject({
      tipo: 'respuesta',
      texto: 'Ana respondió a tu comentario en «Evaluación formativa»',
      enlace: `/foro/categorias/${categoriaId}/conversacion/${conv.id}`,
    });
    expect((await lista(ana, '?no_leidas=true')).notificaciones[0]?.texto).toBe('Luis comentó tu conversación «Evaluación formativa»');
    await todasLeidas(ana);

    await reaccionar(luis, conv.id, 1);
    await reaccionar(luis, conv.id, 2); // a second reaction of Luis: still one notification
    await reaccionar(rosa, conv.id, 3);
    await reaccionar(ana, conv.id, 1); // her own
    let n = (await lista(ana, '?no_leidas=true')).notificaciones;
    expect(n).toHaveLength(1);
    expect(n[0]?.texto).toBe('Rosa y 1 más reaccionaron a tu conversación «Evaluación formativa»');
    expect(n[0]?.ids).toHaveLength(2);
    // Luis takes one back (one remains): nothing changes; then the last one: his goes.
    await reaccionar(luis, conv.id, 1, 'remove_like');
    expect((await lista(ana, '?no_leidas=true')).notificaciones[0]?.ids).toHaveLength(2);
    await reaccionar(luis, conv.id, 2, 'remove_like');
    n = (await lista(ana, '?no_leidas=true')).notificaciones;
    expect(n[0]?.texto).toBe('Rosa reaccionó a tu conversación «Evaluación formativa»');

    await reaccionarComentario(rosa, c1.id, 1);
    expect((await lista(luis, '?no_leidas=true')).notificaciones[0]?.texto).toBe(
      'Rosa reaccionó a tu comentario en «Evaluación formativa»',
    );
    for (const s of [ana, luis, rosa]) await todasLeidas(s);
  });
});

describe('deleted items', () => {
  it('deleting a conversation, a forum comment or a manual takes their notifications with them', async () => {
    const total = async (s: Sesion) => (await lista(s)).num_results;
    const conv = await conversacion(ana, 'Se va');
    const c1 = await comentarForo(luis, conv, 'Comento');
    await reaccionarComentario(rosa, c1.id, 1);
    const [anaAntes, luisAntes] = [await total(ana), await total(luis)];
    expect(anaAntes).toBeGreaterThan(0);
    expect(luisAntes).toBeGreaterThan(0);
    // Luis deletes his comment (no replies): Rosa's reaction on it is forgotten.
    expect((await t.call('DELETE', `/api/foro/comentario/${c1.id}/`, { token: luis.token })).status).toBe(204);
    expect(await total(luis)).toBe(luisAntes - 1);
    // Ana deletes the conversation: Luis's comment on it is forgotten.
    expect((await t.call('DELETE', `/api/foro/conversacion/${conv.id}/`, { token: ana.token })).status).toBe(204);
    expect(await total(ana)).toBe(anaAntes - 1);

    const otro = await insertarManual(t, ana, 'Manual efímero');
    const res = await t.call('POST', '/api/manuales/comentarios/', {
      token: luis.token,
      json: { id_usuario: luis.id, contenido: 'Hola', id_recurso: otro, tipo_recurso: 'id_manual' },
    });
    expect(res.status).toBe(201);
    expect(await total(ana)).toBe(anaAntes);
    expect((await t.call('DELETE', `/api/manuales/${otro}/`, { token: ana.token })).status).toBe(204);
    expect(await total(ana)).toBe(anaAntes - 1);
    for (const s of [ana, luis, rosa]) await todasLeidas(s);
  });
});

describe('reading', () => {
  it('marks given ids (only the caller’s own) or all; read entries are listed one by one', async () => {
    const conv = await conversacion(ana, 'Lectura');
    await comentarForo(luis, conv, 'Uno');
    await comentarForo(rosa, conv, 'Dos');
    const [entrada] = (await lista(ana, '?no_leidas=true')).notificaciones;
    expect(entrada?.ids).toHaveLength(2);
    // Luis cannot mark Ana's.
    const ajeno = await leer(luis, entrada?.ids);
    expect(await ajeno.json()).toEqual({ no_leidas: 0 });
    expect((await lista(ana)).no_leidas).toBe(1);
    const res = await leer(ana, entrada?.ids.slice(0, 1));
    expect(await res.json()).toEqual({ no_leidas: 1 });
    await leer(ana, entrada?.ids);
    const todas = await lista(ana);
    expect(todas.no_leidas).toBe(0);
    expect(todas.notificaciones.slice(0, 2).every((n) => n.leida && n.ids.length === 1)).toBe(true);
  });

  it("the unread tab's count is its entries while it lists every unread row, and counted past its 500", async () => {
    const pia = await t.session({ nombre: 'Pía' });
    const fila = (id_recurso: number) => ({
      id_usuario: pia.id,
      tipo: 'comentario' as const,
      recurso_tipo: 'manual',
      id_recurso,
      titulo: `Manual ${id_recurso}`,
      enlace: `/manuales/${id_recurso}`,
    });
    // Three unread on two items: two entries, two unread.
    await t.db.insert(notificaciones).values([fila(1), fila(1), fila(2)]);
    let noLeidas = await lista(pia, '?no_leidas=true');
    expect([noLeidas.num_results, noLeidas.no_leidas]).toEqual([2, 2]);
    // The pages' bell is that count, and moves with the next notification.
    const campana = () => t.api.services.notificaciones.noLeidas(pia.id);
    expect(await campana()).toBe(2);
    await t.db.insert(notificaciones).values(fila(3));
    expect(await campana()).toBe(3);
    await t.db.delete(notificaciones).where(and(eq(notificaciones.id_usuario, pia.id), eq(notificaciones.id_recurso, 3)));
    expect(await campana()).toBe(2);
    // 510 more, each on an item of its own: the tab lists the newest 500 rows, the count has all.
    await t.db.insert(notificaciones).values(Array.from({ length: 510 }, (_, i) => fila(1_000 + i)));
    noLeidas = await lista(pia, '?no_leidas=true');
    expect([noLeidas.num_results, noLeidas.no_leidas]).toEqual([500, 512]);
    expect((await lista(pia)).no_leidas).toBe(512);
    // Out of the way of the digest tests below, which mail everyone with unread notifications.
    await t.db.delete(notificaciones).where(eq(notificaciones.id_usuario, pia.id));
  });

  it('answers 401 without a token and 400 for a bad body', async () => {
    expect((await t.call('GET', '/api/notificaciones/')).status).toBe(401);
    expect((await t.call('POST', '/api/notificaciones/leidas/', { json: {} })).status).toBe(401);
    expect((await t.call('POST', '/api/notificaciones/leidas/', { token: ana.token, json: { ids: ['x'] } })).status).toBe(400);
  });

  it("refuses a no_leidas that is not true or false: 400 'no_leidas debe ser true o false'", async () => {
    for (const valor of ['foo', 'TRUE', '1', '']) {
      const res = await t.call('GET', `/api/notificaciones/?no_leidas=${valor}`, { token: ana.token });
      expect(res.status, valor).toBe(400);
      const error = await res.json();
      expect(error.detail).toBe('no_leidas debe ser true o false');
      expect(error.errors).toEqual({ no_leidas: ['no_leidas debe ser true o false'] });
    }
    expect((await lista(ana, '?no_leidas=false')).no_leidas).toBeGreaterThanOrEqual(0);
  });
});

describe('preferences', () => {
  it('the owner reads and changes them; anyone else gets 403; default is diario', async () => {
    const url = `/api/usuarios/${ana.id}/preferencias/`;
    expect(await (await t.call('GET', url, { token: ana.token })).json()).toEqual({
      preferencia_correo: 'diario',
      ahorro_datos: false,
      oculto_directorio: false,
    });
    expect((await t.call('GET', url, { token: luis.token })).status).toBe(403);
    expect((await t.call('PUT', url, { token: luis.token, json: { preferencia_correo: 'nunca' } })).status).toBe(403);
    expect((await t.call('PUT', url, { token: ana.token, json: { preferencia_correo: 'siempre' } })).status).toBe(400);
    expect((await t.call('GET', url)).status).toBe(401);
    const res = await t.call('PUT', url, { token: ana.token, json: { preferencia_correo: 'cada_vez' } });
    expect(await res.json()).toEqual({ preferencia_correo: 'cada_vez', ahorro_datos: false, oculto_directorio: false });
    await t.call('PUT', url, { token: ana.token, json: { preferencia_correo: 'diario' } });
  });
});

describe('mail', () => {
  const recibidos: string[] = [];
  let servidor: SMTPServer;
  // Unfolded first: a long header goes on over several lines.
  const header = (raw: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'mi').exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1]?.trim();
  /** A message's quoted-printable text (and encoded-word subject) as UTF-8. */
  const legible = (raw: string) =>
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=\?utf-8\?Q\?([^?]*)\?=/gi, (_, q: string) => q.replace(/_/g, ' '))
      .replace(/(=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replaceAll('=', ''), 'hex').toString('utf8'));

  beforeAll(async () => {
    const port = await freePort();
    servidor = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          recibidos.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => servidor.listen(port, '127.0.0.1', resolve));
    const smtp = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Entre Docentes <no-responder@example.cl>',
      outboxDir: '',
      log: createLogger('silent'),
    });
    t.mailer.send = (m) => smtp.send(m);
  });
  afterAll(() => new Promise<void>((resolve) => servidor.close(() => resolve())));

  /** Moves the clock and signs everyone in again (access tokens last 15 minutes of it). */
  const mover = async (iso: string) => {
    t.clock.now = new Date(iso);
    for (const s of [ana, luis, rosa]) s.token = (await t.login(s.email)).access;
  };
  const correr = async () => {
    await t.jobs.enqueue(TRABAJO_CORREOS, {});
    await t.jobs.drain();
    await t.jobs.drainMail();
  };

  it('the digest job sends one mail a day with List-Unsubscribe; POSTing the link without cookies sets nunca', async () => {
    // 07:30 in Santiago (UTC-3 in November): too early for the digest.
    await mover('2026-11-24T10:30:00Z');
    const conv = await conversacion(ana, 'Resumen');
    await comentarForo(luis, conv, 'Hola Ana');
    await comentarForo(rosa, conv, 'Hola de nuevo');
    await correr();
    expect(recibidos).toHaveLength(0);

    await mover('2026-11-24T12:00:00Z'); // 09:00 local
    await correr();
    expect(recibidos).toHaveLength(1);
    const raw = recibidos[0] ?? '';
    expect(header(raw, 'To')).toContain(ana.email);
    const lista = header(raw, 'List-Unsubscribe') ?? '';
    expect(lista).toMatch(/^<http:\/\/localhost:4321\/api\/notificaciones\/baja\/[\w.-]+\/>$/);
    expect(header(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(raw.replace(/=\r?\n/g, '')).toContain('Rosa y 1 m=C3=A1s comentaron tu conversaci=C3=B3n');
    // The job queued its own next run, a minute later.
    const siguientes = await t.db.select().from(trabajos).where(eq(trabajos.tipo, TRABAJO_CORREOS));
    expect(siguientes.filter((j) => j.estado === 'pendiente')).toHaveLength(1);

    // Later the same day: a new notification waits for tomorrow.
    await comentarForo(rosa, conv, 'Otra más');
    await mover('2026-11-24T22:00:00Z');
    await correr();
    expect(recibidos).toHaveLength(1);
    await mover('2026-11-25T12:00:00Z');
    await correr();
    expect(recibidos).toHaveLength(2);

    // One click: a POST to the link, no cookies, no token.
    const url = new URL(lista.slice(1, -1));
    const pagina = await t.call('GET', url.pathname);
    expect(pagina.status).toBe(200);
    expect(await pagina.text()).toContain('<form method="post">');
    const [antes] = await t.db.select().from(usuarios).where(eq(usuarios.id, ana.id));
    expect(antes?.preferencia_correo).toBe('diario'); // a GET changes nothing
    const res = await t.call('POST', url.pathname, {
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    const [despues] = await t.db.select().from(usuarios).where(eq(usuarios.id, ana.id));
    expect(despues?.preferencia_correo).toBe('nunca');

    // 'nunca': nothing more.
    await comentarForo(luis, conv, 'Y otra');
    await mover('2026-11-26T12:00:00Z');
    await correr();
    expect(recibidos).toHaveLength(2);
    // A forged link is a 400.
    const falsa = url.pathname.replace(/\.[\w-]+\/$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/');
    expect((await t.call('POST', falsa)).status).toBe(400);
  });

  it('the digest holds everything still unread, mailed before or not, never what was read; nothing unread, no mail', async () => {
    const eva = await t.session({ nombre: 'Eva' });
    const deEva = () => recibidos.filter((raw) => header(raw, 'To')?.includes(eva.email)).map(legible);
    const moverConEva = async (iso: string) => {
      await mover(iso);
      eva.token = (await t.login(eva.email)).access;
    };
    await moverConEva('2026-11-27T10:00:00Z'); // 07:00 local
    const uno = await conversacion(eva, 'Uno');
    const dos = await conversacion(eva, 'Dos');
    await comentarForo(luis, uno, 'Hola');
    await comentarForo(luis, dos, 'Hola otra vez');
    await moverConEva('2026-11-27T12:00:00Z');
    await correr();
    expect(deEva()).toHaveLength(1);
    expect(deEva()[0]).toContain('Ver mis notificaciones');
    expect(deEva()[0]).toContain('Luis comentó tu conversación «Uno»');
    expect(deEva()[0]).toContain('Luis comentó tu conversación «Dos»');

    // Eva reads «Dos» only; the next day's digest brings «Uno» again, and not «Dos».
    const entradaDos = (await lista(eva, '?no_leidas=true')).notificaciones.find((n) => n.texto.includes('«Dos»'));
    await leer(eva, entradaDos?.ids);
    await moverConEva('2026-11-28T12:00:00Z');
    await correr();
    expect(deEva()).toHaveLength(2);
    expect(deEva()[1]).toContain('Ver mis notificaciones');
    expect(deEva()[1]).toContain('Luis comentó tu conversación «Uno»');
    expect(deEva()[1]).not.toContain('«Dos»');

    // Everything read: no digest.
    await todasLeidas(eva);
    await moverConEva('2026-11-29T12:00:00Z');
    await correr();
    expect(deEva()).toHaveLength(2);

    // 'Cada vez' mails of the morning do not count as the day's digest for someone who then
    // chooses 'diario': the digest goes that day, once.
    await t.db.update(usuarios).set({ preferencia_correo: 'cada_vez' }).where(eq(usuarios.id, eva.id));
    await comentarForo(rosa, uno, 'Buenos días');
    await correr();
    expect(deEva()).toHaveLength(3);
    expect(deEva()[2]).toContain('Rosa comentó tu conversación «Uno»');
    expect(deEva()[2]).not.toContain('Ver mis notificaciones');
    await t.db.update(usuarios).set({ preferencia_correo: 'diario' }).where(eq(usuarios.id, eva.id));
    await moverConEva('2026-11-29T15:00:00Z');
    await correr();
    expect(deEva()).toHaveLength(4);
    expect(deEva()[3]).toContain('Ver mis notificaciones');
    expect(deEva()[3]).toContain('Rosa comentó tu conversación «Uno»');
    await moverConEva('2026-11-29T22:00:00Z');
    await correr();
    expect(deEva()).toHaveLength(4);
  });

  it("'cada vez' mails each notification once, soon after", async () => {
    await t.db.update(usuarios).set({ preferencia_correo: 'cada_vez' }).where(eq(usuarios.id, rosa.id));
    const conv = await conversacion(rosa, 'Cada vez');
    const antes = recibidos.length;
    await comentarForo(luis, conv, 'Uno');
    await correr();
    await correr();
    expect(recibidos.length).toBe(antes + 1);
    expect(header(recibidos.at(-1) ?? '', 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const sinEnviar = await t.db.select().from(notificaciones).where(eq(notificaciones.id_usuario, rosa.id));
    expect(sinEnviar.every((n) => n.enviada_en !== null || n.leida_en !== null)).toBe(true);
  });
});

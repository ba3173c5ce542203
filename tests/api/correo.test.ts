/**
 * The mail outbox against a real SMTP server (smtp-server, from nodemailer's authors) that the
 * test stops and starts; resending activation links (API and CLI); contact and help slots.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { correos, mensajesAyuda, mensajesContacto } from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createMailer, type Mailer } from '../../src/lib/server/mail/mailer.server.ts';
import { createOutbox, REEMPLAZADO } from '../../src/lib/server/mail/outbox.server.ts';
import { ADMIN_KEY, createTestApi, type TestApi } from '../support/api.ts';
import { freePort, readOutbox, removeDir, root } from '../support/server.ts';
import { smtp } from '../support/smtp.ts';

const log = createLogger('silent');
const header = (raw: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'mi').exec(raw)?.[1]?.trim();
const porEmail = async (t: TestApi, email: string) => t.db.select().from(correos).where(eq(correos.para, email)).orderBy(correos.id);

let t: TestApi;
let servidor: ReturnType<typeof smtp>;
let smtpMailer: Mailer;
let admin: { token: string };
let recording: Mailer['send'];

beforeAll(async () => {
  t = await createTestApi();
  recording = t.mailer.send;
  const port = await freePort();
  servidor = smtp(port);
  smtpMailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Entre Docentes <no-responder@example.cl>', outboxDir: '', log });
  admin = await t.session({ admin: true });
});
afterEach(async () => {
  t.mailer.send = recording;
  await servidor.stop();
});
afterAll(() => t.close());

const invitar = (email: string) =>
  t.call('POST', '/api/admin/usuarios/', { headers: { 'x-admin-key': ADMIN_KEY }, json: { email, nombres: 'Rosa', apellidos: 'Vera' } });

describe('the mail outbox', () => {
  it('answers an invitation made while the mail server is down, and delivers it once when it is back', async () => {
    t.mailer.send = (m) => smtpMailer.send(m);
    expect((await invitar('caida@example.cl')).status).toBe(201);
    let [mail] = await porEmail(t, 'caida@example.cl');
    expect(mail).toMatchObject({ estado: 'pendiente', intentos: 1 });
    expect(mail?.ultimo_error).toMatch(/ECONNREFUSED|connect/i);
    // The next attempt waits a minute.
    expect((mail?.proximo_intento.getTime() ?? 0) - Date.now()).toBeGreaterThan(50_000);
    expect(await t.jobs.drainMail()).toBe(0);

    await servidor.start();
    // A minute later (the clock moved by hand):
    await t.db.update(correos).set({ proximo_intento: sql`now()` }).where(eq(correos.para, 'caida@example.cl'));
    expect(await t.jobs.drainMail()).toBe(1);
    expect(await t.jobs.drainMail()).toBe(0);
    [mail] = await porEmail(t, 'caida@example.cl');
    expect(mail).toMatchObject({ estado: 'enviado', intentos: 2, ultimo_error: null });
    const llegados = servidor.recibidos.filter((r) => r.to.includes('caida@example.cl'));
    expect(llegados).toHaveLength(1);
    expect(header(llegados[0]?.raw ?? '', 'Message-ID')).toBe(`<${mail?.message_id}@example.cl>`);
    const link = /http:\/\/localhost:4321\/activar-cuenta\/[\w-]+/.exec((llegados[0]?.raw ?? '').replace(/=\r?\n/g, ''))?.[0] ?? '';
    const res = await t.call('GET', `/api/usuarios/activar-cuenta/?token=${t.tokenFrom(link)}`);
    expect(await res.json()).toEqual({ email: 'caida@example.cl' });
  });

  it('sends a mail whose sent mark was lost again with the same Message-ID, so receivers drop it', async () => {
    await servidor.start();
    t.mailer.send = (m) => smtpMailer.send(m);
    await invitar('doble@example.cl');
    // The crash window: the server accepted the message, the 'enviado' mark never reached the database.
    await t.db.update(correos).set({ estado: 'pendiente', proximo_intento: sql`now()` }).where(eq(correos.para, 'doble@example.cl'));
    expect(await t.jobs.drainMail()).toBe(1);
    const ids = servidor.recibidos.filter((r) => r.to.includes('doble@example.cl')).map((r) => header(r.raw, 'Message-ID'));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('gives up after the last attempt and keeps the reason; a rejected mailbox fails at once', async () => {
    const outbox = createOutbox({
      db: t.db,
      log,
      mailer: { send: async () => Promise.reject(new Error('connection timed out')) },
      retryDelay: () => 0,
      maxIntentos: 3,
    });
    t.mailer.send = () => Promise.reject(new Error('down'));
    await invitar('nunca@example.cl');
    await t.db.update(correos).set({ proximo_intento: sql`now()` }).where(eq(correos.para, 'nunca@example.cl'));
    expect(await outbox.sendDue()).toBe(2);
    expect((await porEmail(t, 'nunca@example.cl'))[0]).toMatchObject({
      estado: 'fallido',
      intentos: 3,
      ultimo_error: 'connection timed out',
    });

    const rechazo = Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 });
    t.mailer.send = () => Promise.reject(rechazo);
    await invitar('no-existe@example.cl');
    expect((await porEmail(t, 'no-existe@example.cl'))[0]).toMatchObject({ estado: 'fallido', intentos: 1 });
  });
});

describe('resending an activation link', () => {
  it('sends a fresh link by API; the old one stops working and its unsent mail is retired', async () => {
    t.mailer.send = () => Promise.reject(new Error('down'));
    const creada = await invitar('reenvio@example.cl');
    const { usuario } = (await creada.json()) as { usuario: { id: number } };
    t.mailer.send = recording;
    const res = await t.call('POST', `/api/admin/usuarios/${usuario.id}/reenviar-activacion/`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      detail: 'Se envió un nuevo enlace de activación a reenvio@example.cl',
      email: 'reenvio@example.cl',
    });
    const filas = await porEmail(t, 'reenvio@example.cl');
    expect(filas.map((f) => [f.estado, f.ultimo_error])).toEqual([
      ['fallido', REEMPLAZADO],
      ['enviado', null],
    ]);
    const viejo = t.tokenFrom(filas[0]?.enlace ?? '');
    const nuevo = t.tokenFrom(t.lastLinkTo('reenvio@example.cl'));
    expect(nuevo).not.toBe(viejo);
    expect((await t.call('GET', `/api/usuarios/activar-cuenta/?token=${viejo}`)).status).toBe(404);
    expect((await t.call('GET', `/api/usuarios/activar-cuenta/?token=${nuevo}`)).status).toBe(200);
  });

  it('says an invited account exists and how to resend; refuses active, unknown and non-admin', async () => {
    await invitar('pendiente@example.cl');
    const otra = await invitar('pendiente@example.cl');
    expect(otra.status).toBe(409);
    const body = await otra.json();
    // The local admin key (the CLI) is told the command; an admin in the console, the button.
    expect(body.errors.email[0]).toMatch(
      /^Ya existe una cuenta sin activar con ese correo\. .*npm run usuarios -- reenviar --email pendiente@example\.cl/,
    );
    const enConsola = await t.call('POST', '/api/admin/usuarios/', {
      token: admin.token,
      json: { email: 'pendiente@example.cl', nombres: 'Rosa', apellidos: 'Vera' },
    });
    expect(enConsola.status).toBe(409);
    expect((await enConsola.json()).errors.email[0]).toBe(
      'Ya existe una cuenta sin activar con ese correo. Para enviarle un nuevo enlace de activación usa «Reenviar activación» en su fila de la lista de usuarios.',
    );

    const activa = await t.createUser();
    const r409 = await t.call('POST', `/api/admin/usuarios/${activa.id}/reenviar-activacion/`, { token: admin.token });
    expect(r409.status).toBe(409);
    expect((await r409.json()).detail).toBe('La cuenta ya está activa');
    expect((await t.call('POST', '/api/admin/usuarios/999999/reenviar-activacion/', { token: admin.token })).status).toBe(404);
    const docente = await t.session();
    expect((await t.call('POST', `/api/admin/usuarios/${activa.id}/reenviar-activacion/`, { token: docente.token })).status).toBe(403);
    expect((await t.call('POST', `/api/admin/usuarios/${activa.id}/reenviar-activacion/`)).status).toBe(401);
    const porEmailRes = await t.call('POST', '/api/admin/usuarios/reenviar-activacion/', {
      headers: { 'x-admin-key': ADMIN_KEY },
      json: { email: 'PENDIENTE@example.cl' },
    });
    expect(porEmailRes.status).toBe(200);
  });

  it('works from the CLI with the server stopped: a new link in the outbox', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-cli-'));
    const cli = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', SMTP_URL: '' };
        const child = spawn(process.execPath, ['src/lib/server/cli/usuarios.server.ts', ...args], { cwd: root, env });
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          out += d;
        });
        child.once('exit', (code) => resolve({ code, out }));
      });
    try {
      expect((await cli(['crear', '--email', 'cli.reenvio@example.cl', '--nombres', 'Ana', '--apellidos', 'Rojas'])).code).toBe(0);
      const reenvio = await cli(['reenviar', '--email', 'cli.reenvio@example.cl']);
      expect(reenvio).toEqual({
        code: 0,
        out: 'Se envió un nuevo enlace de activación a cli.reenvio@example.cl; el anterior ya no funciona.\n',
      });
      const links = readOutbox(dataDir).map((m) => m.link);
      expect(readdirSync(path.join(dataDir, 'outbox'))).toHaveLength(2);
      expect(new Set(links).size).toBe(2);
      expect(await cli(['reenviar', '--email', 'nadie@example.cl'])).toEqual({ code: 1, out: 'Usuario no encontrado\n' });
    } finally {
      removeDir(dataDir);
    }
  });
});

describe('contact and help: one stored message and one mail per accepted request', () => {
  it('spends a contact slot only on an accepted message, and never more than 10 at once', async () => {
    const a = await t.session();
    const b = await t.session();
    const inactivo = await t.createUser({ activo: false });
    const enviar = (receiver: number) =>
      t.call('POST', `/api/usuarios/${a.id}/enviar-email/`, {
        token: a.token,
        json: { id_usuario_receiver: receiver, asunto: 'Hola', mensaje: 'Mensaje' },
      });
    // Refused requests spend nothing.
    for (let i = 0; i < 3; i++) expect((await enviar(inactivo.id)).status).toBe(404);
    // Twelve at once: exactly ten pass.
    const estados = (await Promise.all(Array.from({ length: 12 }, () => enviar(b.id)))).map((r) => r.status).sort();
    expect(estados).toEqual([...Array(10).fill(200), 429, 429]);
    const [guardados] = await t.db.select({ n: count() }).from(mensajesContacto).where(eq(mensajesContacto.id_usuario_sender, a.id));
    expect(guardados?.n).toBe(10);
    expect(t.mails.filter((m) => m.to === b.email)).toHaveLength(10);
  });

  it('stores and queues a help message together', async () => {
    const a = await t.session();
    const antes = t.mails.length;
    const res = await t.call('POST', `/api/usuarios/${a.id}/enviar-email-ayuda/`, {
      token: a.token,
      json: { asunto: 'Reclamo', mensaje: 'Una vez' },
    });
    expect(res.status).toBe(200);
    const [guardados] = await t.db.select({ n: count() }).from(mensajesAyuda).where(eq(mensajesAyuda.id_usuario_sender, a.id));
    expect(guardados?.n).toBe(1);
    expect(t.mails.length).toBe(antes + 1);
  });
});

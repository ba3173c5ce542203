/**
 * The admin console in a browser (issue 16): an admin invites a teacher through the form, imports
 * a CSV roster with one bad line, resends an activation, deactivates a teacher (whose open session
 * then fails) and reactivates them, reads the statistics (chart, table, CSV), and retries a video
 * job that really failed. A teacher gets 403 and 'No tienes permisos' on every page and CSV, and
 * no 'Administración' in the menu.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPage } from '../support/browser.ts';
import { apiClient, signIn } from '../support/client.ts';
import { multipart } from '../support/form.ts';
import { ADMIN, freePort, type RunningServer, readOutbox, removeDir, startServer } from '../support/server.ts';
import { video } from '../support/video.ts';
import {
  abrirComo,
  correoNuevo,
  docenteActivo,
  enlaceEnviadoA,
  hidratada,
  ingresarPorApi,
  mensajeDe,
  navegador,
  toast,
  url,
} from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const PAGINAS = ['/admin', '/admin/usuarios', '/admin/trabajos', '/admin/estadisticas', '/admin/registro'];
const CSV = ['docentes-activos', 'subidas', 'visitas', 'mas-vistos', 'materiales'];

/** A valid Chilean RUT for a number (modulo 11 check digit), so each run has its own. */
function rut(n: number): string {
  let suma = 0;
  let factor = 2;
  for (const d of String(n).split('').reverse()) {
    suma += Number(d) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const resto = 11 - (suma % 11);
  return `${n}-${resto === 11 ? '0' : resto === 10 ? 'K' : String(resto)}`;
}

/** The row of an account in /admin/usuarios, found by a search for its email. */
async function filaDe(page: Page, email: string) {
  await page.goto(`/admin/usuarios?q=${encodeURIComponent(email)}`);
  await hidratada(page);
  return page.locator('tbody tr', { has: page.getByText(email, { exact: true }) });
}

const estadoDe = async (page: Page, email: string) => (await filaDe(page, email)).locator('.estado-cuenta').textContent();

describe('a teacher', () => {
  it("gets 403 and 'No tienes permisos' on every admin page and CSV, and no 'Administración' in the menu", async () => {
    const email = correoNuevo('docente.sin.permisos');
    await docenteActivo(email, 'Docente2026');
    const page = await abrirComo(browser, { email, password: 'Docente2026' });
    for (const ruta of PAGINAS) {
      const respuesta = await page.goto(ruta);
      expect(respuesta?.status(), ruta).toBe(403);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), ruta).toBe('No tienes permisos');
    }
    for (const serie of CSV) {
      const respuesta = await page.request.get(url(`/admin/estadisticas/${serie}.csv`));
      expect(respuesta.status(), serie).toBe(403);
      expect(await respuesta.text()).toContain('No tienes permisos');
    }
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    expect(await menu.getByRole('link').allTextContents()).not.toContainEqual(expect.stringContaining('Administración'));
    expect(await menu.getByRole('link').count()).toBeGreaterThan(0);
  });
});

describe('an admin', () => {
  it("sees 'Administración' in the menu and the console's four screens", async () => {
    const page = await abrirComo(browser);
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Administración' }).click();
    await page.waitForURL(url('/admin/usuarios'));
    const consola = page.getByRole('navigation', { name: 'Administración' });
    for (const [enlace, titulo] of [
      ['Trabajos y correos', 'Trabajos y correos'],
      ['Estadísticas', 'Estadísticas'],
      ['Registro', 'Registro'],
      ['Usuarios', 'Usuarios'],
    ] as const) {
      await consola.getByRole('link', { name: enlace }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(titulo);
      expect(await consola.getByRole('link', { name: enlace }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('invites a teacher through the form, with the CLI validation (RUT included)', async () => {
    const page = await abrirComo(browser);
    await page.goto('/admin/usuarios');
    await hidratada(page);
    await page.getByText('Invitar a una persona').click();
    const email = correoNuevo('invitada.formulario');
    const formulario = page.getByRole('form', { name: 'Invitar a una persona' });
    await formulario.getByLabel('Correo').fill(email);
    await formulario.getByLabel('Nombres').fill('Ana María');
    await formulario.getByLabel('Apellidos').fill('Rojas Soto');
    await formulario.getByLabel('RUT (opcional)').fill('12.345.678-9');
    await formulario.getByLabel('Colegio (opcional)').fill('Liceo Bicentenario de Prueba');
    await formulario.getByRole('button', { name: 'Invitar' }).click();
    expect(await mensajeDe(page, 'RUT (opcional)')).toBe('Debe ingresar un RUT válido');

    await formulario.getByLabel('RUT (opcional)').fill(rut(10_000_000 + (Date.now() % 9_000_000)));
    await formulario.getByRole('button', { name: 'Invitar' }).click();
    await expect
      .poll(() => formulario.getByRole('status').textContent())
      .toBe(`Se creó la cuenta y se envió el enlace de activación a ${email}.`);
    expect(await formulario.getByLabel('Correo').inputValue()).toBe('');
    expect(await enlaceEnviadoA(email)).toContain('/activar-cuenta/');

    expect(await estadoDe(page, email)).toBe('Pendiente de activación');
    const fila = await filaDe(page, email);
    expect(await fila.locator('td').nth(1).textContent()).toBe('Liceo Bicentenario de Prueba');
  });

  it('imports a CSV with one bad line: the preview shows its error, confirming creates the valid ones', async () => {
    const page = await abrirComo(browser);
    await page.goto('/admin/usuarios');
    await hidratada(page);
    await page.getByText('Importar una planilla CSV').click();
    const [uno, dos] = [correoNuevo('importada.uno'), correoNuevo('importada.dos')];
    const planilla = [
      'email;nombres;apellidos;colegio',
      `${uno};Pedro;Díaz Lagos;Escuela Importada`,
      'no-es-un-correo;Sin;Correo;',
      `${dos};Rosa;Mella;`,
    ].join('\n');
    await page.getByLabel('Planilla CSV').setInputFiles({ name: 'nomina.csv', mimeType: 'text/csv', buffer: Buffer.from(planilla) });
    await page.getByRole('button', { name: 'Revisar planilla' }).click();
    await expect.poll(() => page.locator('#titulo-vista').textContent()).toBe('Vista previa: 2 de 3 líneas se pueden crear');
    const vista = page.getByRole('region', { name: 'Líneas de la planilla' });
    const mala = vista.locator('tbody tr', { has: page.getByText('no-es-un-correo') });
    expect(await mala.locator('th').textContent()).toBe('3');
    expect(await mala.textContent()).toContain('Con errores');
    expect(await mala.textContent()).toContain('Debe ingresar un email válido');
    expect(await vista.locator('tbody tr').count()).toBe(3);
    // Nothing is created by the preview.
    expect(readOutbox(inject('dataDir')).filter((m) => m.to.includes(uno))).toEqual([]);

    await page.getByRole('button', { name: 'Confirmar importación' }).click();
    await expect
      .poll(() => page.locator('#titulo-resultado').textContent())
      .toBe('Importación terminada: 2 cuentas creadas, 1 línea con errores');
    const resultado = page.getByRole('region', { name: 'Resultado de cada línea' });
    expect(await resultado.locator('tbody tr', { has: page.getByText(uno) }).textContent()).toContain('Creada');
    expect(await enlaceEnviadoA(uno)).toContain('/activar-cuenta/');
    expect(await enlaceEnviadoA(dos)).toContain('/activar-cuenta/');
    expect(await estadoDe(page, dos)).toBe('Pendiente de activación');
  });

  it('resends the activation link of a pending account from its row', async () => {
    const email = correoNuevo('reenvio');
    const { api } = await apiAdmin();
    const { response } = await api.POST('/api/admin/usuarios/', { body: { email, nombres: 'Marta', apellidos: 'Vera', admin: false } });
    expect(response.status).toBe(201);
    await enlaceEnviadoA(email);
    const page = await abrirComo(browser);
    const fila = await filaDe(page, email);
    await fila.getByRole('button', { name: `Reenviar activación a ${email}` }).click();
    await toast(page, `Se envió un nuevo enlace de activación a ${email}`);
    await expect.poll(() => readOutbox(inject('dataDir')).filter((m) => m.to.includes(email) && m.link).length).toBe(2);
  });

  it('deactivates a teacher, whose open session then fails, and reactivates them', async () => {
    const email = correoNuevo('desactivada');
    const password = 'Docente2026';
    await docenteActivo(email, password);
    const docente = await abrirComo(browser, { email, password });
    expect((await docente.goto('/capsulas/'))?.status()).toBe(200);

    const page = await abrirComo(browser);
    let fila = await filaDe(page, email);
    expect(await fila.locator('.estado-cuenta').textContent()).toBe('Activa');
    await fila.getByRole('button', { name: `Desactivar la cuenta de ${email}` }).click();
    const dialogo = page.getByRole('dialog', { name: 'Desactivar cuenta' });
    expect(await dialogo.textContent()).toContain('sus sesiones abiertas terminan de inmediato');
    await dialogo.getByRole('button', { name: 'Desactivar' }).click();
    await toast(page, `Se desactivó la cuenta de ${email}`);
    expect(await estadoDe(page, email)).toBe('Desactivada');

    // The teacher's open tab: the next page asks to sign in again, and signing in is refused.
    await docente.goto('/capsulas/');
    expect(new URL(docente.url()).pathname).toBe('/ingresar/');
    const ingreso = await docente.request.post(url('/auth/login/'), { data: { email, password } });
    expect(ingreso.status()).not.toBe(200);

    fila = await filaDe(page, email);
    await fila.getByRole('button', { name: `Reactivar la cuenta de ${email}` }).click();
    await toast(page, `Se reactivó la cuenta de ${email}`);
    expect(await estadoDe(page, email)).toBe('Activa');
    await ingresarPorApi(docente, { email, password });
    expect((await docente.goto('/capsulas/'))?.status()).toBe(200);

    // Both actions are in the audit log.
    await page.goto(`/admin/registro?q=${encodeURIComponent(email)}`);
    const registro = await page.locator('tbody tr').allTextContents();
    expect(registro.some((r) => r.includes(ADMIN.email) && /desactiv/i.test(r))).toBe(true);
    expect(registro.some((r) => /reactiv/i.test(r))).toBe(true);
  });

  it('reads the statistics: SVG charts with their tables, and each CSV', async () => {
    const page = await abrirComo(browser);
    const respuesta = await page.goto('/admin/estadisticas');
    expect(respuesta?.status()).toBe(200);
    // No island: only the shell's own small script runs here.
    expect(await page.locator('astro-island').count()).toBe(0);
    const graficos = page.locator('svg[role="img"]');
    expect(await graficos.count()).toBe(3);
    const activos = page.getByRole('img', { name: /docentes que ingresaron cada semana/ });
    expect(await activos.locator('rect.columna').count()).toBe(12);

    const seccion = page.locator('section.grafico', { has: page.getByRole('heading', { name: 'Docentes activos por semana' }) });
    await seccion.getByText('Ver los datos').click();
    const tabla = seccion.getByRole('table', { name: 'Tabla: Docentes activos por semana' });
    expect(await tabla.locator('tbody tr').count()).toBe(12);
    // The admin signed in this week.
    expect(Number(await tabla.locator('tbody tr').last().locator('td').textContent())).toBeGreaterThanOrEqual(1);

    const [descarga] = await Promise.all([page.waitForEvent('download'), seccion.getByRole('link', { name: /Descargar CSV/ }).click()]);
    expect(descarga.suggestedFilename()).toMatch(/^entre-docentes-docentes-activos-\d{4}-\d{2}-\d{2}\.csv$/);

    for (const serie of CSV) {
      const csv = await page.request.get(url(`/admin/estadisticas/${serie}.csv`));
      expect(csv.status(), serie).toBe(200);
      expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers()['content-disposition']).toMatch(new RegExp(`^attachment; filename="entre-docentes-${serie}-`));
    }
    const subidas = await (await page.request.get(url('/admin/estadisticas/subidas.csv'))).text();
    const lineas = subidas
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lineas[0]).toBe('Mes;Cápsulas;Materiales;Manuales');
    expect(lineas).toHaveLength(13);

    const calor = page.getByRole('table', { name: /Materiales por área/ });
    expect(await calor.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await calor.locator('tbody td').first().textContent()).toMatch(/^\d+$/);
  });
});

async function apiAdmin() {
  const sesion = await signIn(inject('baseUrl'), ADMIN);
  return { api: apiClient(inject('baseUrl'), sesion.access) };
}

/**
 * Work that really fails, on a server of its own (on PostgreSQL, so the test can read the queue
 * while it runs): its ffmpeg refuses to work while a flag file exists (ffprobe is the real one, so
 * the upload is accepted), and its mail server refuses some addresses for good (550) until told
 * otherwise. The admin sees each failure with its reason and 'Reintentar' gets it done.
 */
describe('failed jobs and mail', () => {
  const postgres = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const nombre = `ed_admin_${Date.now().toString(36)}`;
  const databaseUrl = Object.assign(new URL(postgres), { pathname: `/${nombre}` }).toString();
  const binarios = mkdtempSync(path.join(os.tmpdir(), 'ed-ffmpeg-'));
  const romper = path.join(binarios, 'romper');
  let server: RunningServer | undefined;
  let smtp: SMTPServer | undefined;
  let rechazar = true;
  const recibidos: string[] = [];

  async function sql(consulta: string, url = postgres) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(consulta)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    mkdirSync(binarios, { recursive: true });
    writeFileSync(
      path.join(binarios, 'ffmpeg'),
      `#!/bin/sh\nif [ -e "${romper}" ]; then echo "Códec no soportado (falla de prueba)" >&2; exit 1; fi\nexec /usr/bin/ffmpeg "$@"\n`,
    );
    chmodSync(path.join(binarios, 'ffmpeg'), 0o755);
    symlinkSync('/usr/bin/ffprobe', path.join(binarios, 'ffprobe'));
    writeFileSync(romper, '');
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (rechazar && address.address.startsWith('rebota.'))
          callback(Object.assign(new Error('Buzón no disponible'), { responseCode: 550 }));
        else callback();
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          recibidos.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    const puerto = await freePort();
    await new Promise<void>((resolve) => smtp?.listen(puerto, '127.0.0.1', resolve));
    await sql(`create database ${nombre}`);
    server = await startServer({
      env: {
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'secreto-de-prueba-de-la-consola-0123456789',
        FFMPEG_PATH: path.join(binarios, 'ffmpeg'),
        SMTP_URL: `smtp://127.0.0.1:${puerto}`,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
    if (server) removeDir(server.dataDir);
    await sql(`drop database if exists ${nombre} with (force)`);
    rmSync(binarios, { recursive: true, force: true });
  });

  async function comoAdmin() {
    const base = server?.url ?? '';
    const api = apiClient(base, (await signIn(base, ADMIN)).access);
    const page = await newPage(browser, base);
    expect((await page.request.post(`${base}/auth/login/`, { data: ADMIN })).status()).toBe(200);
    return { api, page };
  }

  it("shows the failed video job with its reason, and 'Reintentar' processes it", { timeout: 180_000 }, async () => {
    const { api, page } = await comoAdmin();
    const { data: areas } = await api.GET('/api/curriculum_escolar/areas/');
    const { data: metodologias } = await api.GET('/api/metodologias/');
    const area = areas?.[0];
    const { data: niveles } = await api.GET('/api/curriculum_escolar/niveles/', { params: { query: { area: area?.id ?? 0 } } });
    const titulo = 'Cápsula que no se pudo procesar';
    const { data: capsula, response } = await api.POST('/api/capsulas/', {
      body: {
        titulo,
        descripcion: 'Video de prueba',
        id_area: area?.id ?? 0,
        id_metodologia: metodologias?.[0]?.id ?? 0,
        id_nivel: niveles?.[0]?.codigo ?? '',
        extension: 'mp4',
        archivo: 'video.mp4',
      },
      bodySerializer: multipart({ data: await video({ seconds: 1 }), name: 'video.mp4', type: 'video/mp4' }),
    });
    expect(response.status).toBe(201);

    // The job retries with backoff (20 s, then 40 s): each retry is made due at once.
    const limite = Date.now() + 90_000;
    for (;;) {
      const [trabajo] = await sql(`select estado from trabajos where tipo = 'capsula-hls'`, databaseUrl);
      if (trabajo?.estado === 'fallido') break;
      if (Date.now() > limite) throw new Error(`the video job did not fail (estado ${trabajo?.estado})`);
      await sql(`update trabajos set ejecutar_desde = now() where estado = 'pendiente'`, databaseUrl);
      await new Promise((r) => setTimeout(r, 300));
    }

    await page.goto('/admin/trabajos');
    await hidratada(page);
    const descripcion = `Procesar video de la cápsula «${titulo}»`;
    const fallidos = page.getByRole('region', { name: 'Fallidos', exact: true });
    const fila = fallidos.locator('tbody tr', { has: page.getByText(descripcion) });
    expect(await fila.locator('td.numero').textContent()).toBe('3 de 3');
    expect(await fila.locator('td.motivo').textContent()).not.toBe('—');

    rmSync(romper);
    await fila.getByRole('button', { name: `Reintentar: ${descripcion}` }).click();
    await toast(page, `Se volvió a poner en cola: ${descripcion}`);
    await expect
      .poll(
        async () => {
          const { data } = await api.GET('/api/capsulas/{id}/', { params: { path: { id: capsula?.id ?? 0 } } });
          return data?.estado;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe('listo');
    await page.goto('/admin/trabajos');
    expect(await page.getByRole('region', { name: 'Terminados hoy', exact: true }).getByText(descripcion).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Fallidos', exact: true }).getByText(descripcion).count()).toBe(0);
  });

  it("shows a mail the server refused in 'Fallidos' with the reason, and 'Reintentar' sends it", async () => {
    const { api, page } = await comoAdmin();
    const email = `rebota.${Date.now().toString(36)}@colegio.cl`;
    const { response } = await api.POST('/api/admin/usuarios/', { body: { email, nombres: 'Rosa', apellidos: 'Rebote', admin: false } });
    expect(response.status).toBe(201);
    await expect
      .poll(async () => (await sql(`select estado from correos where para = '${email}'`, databaseUrl))[0]?.estado, { timeout: 20_000 })
      .toBe('fallido');

    await page.goto('/admin/trabajos?estado=fallido');
    await hidratada(page);
    const fila = page.locator('#correos tbody tr', { has: page.getByText(email) });
    expect(await fila.locator('.estado-correo').textContent()).toBe('Fallido');
    expect(await fila.locator('td.motivo').textContent()).toContain('550');

    rechazar = false;
    await fila.getByRole('button', { name: `Reintentar: correo a ${email}` }).click();
    await toast(page, `Se volvió a poner en cola: correo a ${email}`);
    await expect.poll(() => recibidos, { timeout: 20_000 }).toContain(email);
    await page.goto('/admin/trabajos?estado=enviado');
    expect(
      await page
        .locator('#correos tbody tr', { has: page.getByText(email) })
        .locator('.estado-correo')
        .textContent(),
    ).toBe('Enviado');
  });
});

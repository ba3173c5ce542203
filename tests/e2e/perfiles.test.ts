/**
 * The community directory, contact and profiles in a browser (docs/SPEC.md sections 2, 4, 5,
 * 8 and 9): search, contact (the mail lands in the outbox with the right recipient and Reply-To),
 * profile views, personal information, specialties, areas and levels (issue 21), and the photo
 * crop editor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, MOBILE, newPage } from '../support/browser.ts';
import { apiClient } from '../support/client.ts';
import { ADMIN, waitForMail } from '../support/server.ts';
import {
  abrir,
  avisos,
  correoNuevo,
  enlaceEnviadoA,
  ingresar,
  ingresarPorApi,
  invitar,
  mensajeDe,
  navegador,
  responder,
  retener,
  url,
  violacionesGraves,
} from './helpers.ts';

const CLAVE = 'Clave12345';

let browser: Browser;
let tokenAdmin: string;

interface Docente {
  id: number;
  email: string;
  token: string;
  nombre: string;
}

/** The typed API client, with a session when given its access token. */
const api = (token?: string) => apiClient(inject('baseUrl'), token);

async function acceder(email: string, password = CLAVE): Promise<{ access: string; id: number }> {
  const { data, response } = await api().POST('/auth/login/', { body: { email, password } });
  expect(response.status).toBe(200);
  if (!data || 'segundo_factor' in data) throw new Error(`${email} did not sign in with a password alone`);
  return { access: data.access, id: data.usuario.id };
}

/** An active account: invited (by the admin CLI or the admin API), activated with the mailed link. */
async function docente(
  nombres: string,
  apellidos: string,
  opciones: { cli?: boolean; colegio?: string; admin?: boolean } = {},
): Promise<Docente> {
  const email = correoNuevo(
    (nombres.split(' ')[0] ?? 'docente')
      .normalize('NFD')
      .replace(/[^a-zA-Z]/g, '')
      .toLowerCase(),
  );
  if (opciones.cli) await invitar(email, nombres, apellidos);
  else {
    const body = { email, nombres, apellidos, admin: opciones.admin ?? false, ...(opciones.colegio ? { colegio: opciones.colegio } : {}) };
    expect((await api(tokenAdmin).POST('/api/admin/usuarios/', { body })).response.status).toBe(201);
  }
  const token = new URL(await enlaceEnviadoA(email)).pathname.split('/').at(-1) ?? '';
  const activacion = await api().POST('/api/usuarios/activar-cuenta/', {
    body: { token, password: CLAVE, password_confirmation: CLAVE, acepta_privacidad: true },
  });
  expect(activacion.response.status).toBe(200);
  const { access, id } = await acceder(email);
  return { id, email, token: access, nombre: `${nombres} ${apellidos}` };
}

async function sesion(d: Pick<Docente, 'email'>, viewport = DESKTOP): Promise<Page> {
  const page = await newPage(browser, inject('baseUrl'), viewport);
  await ingresar(page, d.email, CLAVE);
  return page;
}

/** A distinct word for each run, so searches find only this file's teachers. */
const marca = () => `Zq${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e4)}`;

beforeAll(async () => {
  browser = await navegador();
  tokenAdmin = (await acceder(ADMIN.email, ADMIN.password)).access;
});
afterAll(async () => {
  await browser?.close();
});

describe('/comunidad/ (the directory)', () => {
  let apellido: string;
  let docentes: Docente[];
  let colegio: { id: number; nombre: string };

  beforeAll(async () => {
    apellido = marca();
    const colegios = (await api(tokenAdmin).GET('/api/colegios/')).data ?? [];
    colegio = colegios[1] ?? { id: 0, nombre: '' };
    docentes = [];
    const nombres = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe'];
    for (const [i, n] of nombres.entries()) {
      docentes.push(
        await docente(n, `${apellido} ${i}`, i === 1 ? { cli: true } : { colegio: i === 0 ? colegio.nombre : colegios[0]?.nombre }),
      );
    }
    const primera = docentes[0];
    if (!primera) throw new Error('no teachers');
    const path = { id: primera.id };
    expect(
      (
        await api(primera.token).POST('/api/usuarios/profesores/{id}/especialidades/', {
          params: { path },
          body: { especialidad: 'Huerto escolar' },
        })
      ).response.status,
    ).toBe(201);
    expect(
      (
        await api(primera.token).POST('/api/usuarios/profesores/{id}/areas/', {
          params: { path },
          body: { area: 'Matemática' },
        })
      ).response.status,
    ).toBe(201);
  });

  it('searches by name with the GET form; the card shows photo, name, school, specialties, areas and Contactar; the URL keeps the filters', async () => {
    const [ana, bruno] = docentes;
    if (!ana || !bruno) throw new Error('no teachers');
    const page = await sesion(bruno);
    await page.goto('/comunidad/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Comunidad Docente');
    await page.getByLabel('Nombre', { exact: true }).fill(`ana ${apellido.toLowerCase()}`);
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((u) => u.searchParams.get('profesor') === `ana ${apellido.toLowerCase()}`);
    // Only the filters in use travel in the URL.
    expect(new URL(page.url()).search).toBe(`?profesor=ana+${apellido.toLowerCase()}`);
    const tarjetas = page.locator('article.docente');
    expect(await tarjetas.count()).toBe(1);
    const tarjeta = tarjetas.first();
    expect(await tarjeta.getByRole('heading').textContent()).toBe(`Ana ${apellido} 0`);
    expect(await tarjeta.locator('.colegio').textContent()).toContain(colegio.nombre);
    expect(await tarjeta.getByRole('list', { name: 'Especialidades' }).textContent()).toBe('Huerto escolar');
    expect(await tarjeta.getByRole('list', { name: 'Áreas' }).textContent()).toBe('Matemática');
    expect(await tarjeta.locator('.avatar-persona').textContent()).toBe('AZ');
    expect(await tarjeta.getByRole('link', { name: `Contactar a Ana ${apellido} 0` }).getAttribute('href')).toBe(
      `/comunidad/${ana.id}/contactar`,
    );
    expect(await page.getByLabel('Nombre', { exact: true }).inputValue()).toBe(`ana ${apellido.toLowerCase()}`);
  });

  it('filters by school and area, paginates with the page-size selector, and leaves the searcher out', async () => {
    const [, bruno] = docentes;
    if (!bruno) throw new Error('no teachers');
    const page = await sesion(bruno);
    await page.goto(`/comunidad/?profesor=${apellido}`);
    // Bruno searches: the other five.
    expect(await page.locator('.conteo span').textContent()).toBe('5 docentes');
    await page.getByLabel('Resultados por página').selectOption('5');
    await page.waitForURL((u) => u.searchParams.get('tamano_pagina') === '5');
    expect(await page.locator('article.docente').count()).toBe(5);
    expect(await page.locator('.paginacion').isVisible()).toBe(false);

    await page.getByLabel('Establecimiento').selectOption(String(colegio.id));
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((u) => u.searchParams.get('colegio') === String(colegio.id));
    expect(await page.locator('article.docente h2').allTextContents()).toEqual([`Ana ${apellido} 0`]);

    await page.goto(`/comunidad/?profesor=${apellido}`);
    await page.getByLabel('Área', { exact: true }).selectOption({ label: 'Matemática' });
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((u) => u.searchParams.has('area'));
    expect(await page.locator('article.docente h2').allTextContents()).toEqual([`Ana ${apellido} 0`]);

    // Someone outside the group sees all six: two pages of five.
    const otra = await abrir(browser);
    await ingresar(otra);
    await otra.goto(`/comunidad/?profesor=${apellido}&tamano_pagina=5`);
    await otra.getByRole('link', { name: 'Página 2' }).click();
    await otra.waitForURL((u) => u.searchParams.get('pagina') === '2');
    expect(await otra.locator('article.docente').count()).toBe(1);
    expect(new URL(otra.url()).searchParams.get('tamano_pagina')).toBe('5');
    expect(await otra.getByRole('link', { name: 'Página 2' }).getAttribute('aria-current')).toBe('page');
    await otra.getByRole('link', { name: 'Anterior' }).click();
    await otra.waitForURL((u) => !u.searchParams.has('pagina'));
    expect(await otra.locator('article.docente').count()).toBe(5);
  });

  it('shows 10 skeletons while the next results load (a search or a page link)', async () => {
    const page = await abrir(browser);
    await ingresar(page);
    await page.goto(`/comunidad/?profesor=${apellido}&tamano_pagina=5`);
    // The next page is held until the skeletons were read; Playwright itself waits for navigations, so the page reports.
    const otraPagina = (u: URL) => u.pathname === '/comunidad/' && u.search !== `?profesor=${apellido}&tamano_pagina=5`;
    let soltar = await retener(page, otraPagina);
    await page.getByLabel('Área', { exact: true }).selectOption({ label: 'Matemática' });
    const alBuscar = await page.locator('form.buscador').evaluate((form: HTMLFormElement) => {
      form.requestSubmit();
      const resultados = document.querySelector('.resultados');
      return {
        esqueletos: document.querySelectorAll('.esqueleto').length,
        ocupado: resultados?.getAttribute('aria-busy'),
        tarjetas: document.querySelectorAll('article.docente').length,
      };
    });
    expect(alBuscar).toEqual({ esqueletos: 10, ocupado: 'true', tarjetas: 0 });
    soltar();
    await page.waitForURL((u) => u.searchParams.has('area'));
    expect(await page.locator('.esqueleto').count()).toBe(0);
    expect(await page.locator('article.docente').count()).toBe(1);

    await page.goto(`/comunidad/?profesor=${apellido}&tamano_pagina=5`);
    await page.unrouteAll();
    soltar = await retener(page, otraPagina);
    const alPaginar = await page.getByRole('link', { name: 'Página 2' }).evaluate((a: HTMLAnchorElement) => {
      a.click();
      return document.querySelectorAll('.esqueleto').length;
    });
    expect(alPaginar).toBe(10);
    soltar();
    await page.waitForURL((u) => u.searchParams.get('pagina') === '2');
    expect(await page.locator('article.docente').count()).toBeGreaterThan(0);
  });

  it('works before JavaScript: the GET form and the page links', async () => {
    const context = await browser.newContext({ baseURL: inject('baseUrl'), viewport: MOBILE, locale: 'es-CL', javaScriptEnabled: false });
    const page = await context.newPage();
    // Without scripts the sign-in island cannot run: the session cookies come from the API.
    await ingresarPorApi(page, ADMIN);
    await page.goto('/comunidad/');
    // On a phone the form waits behind 'Filtros', a <details> that opens without a script.
    await page.locator('summary', { hasText: 'Filtros' }).click();
    await page.getByLabel('Nombre', { exact: true }).fill(apellido);
    await page.getByLabel('Resultados por página').selectOption('5');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.waitForURL((u) => u.searchParams.get('tamano_pagina') === '5');
    expect(await page.locator('article.docente').count()).toBe(5);
    expect(await page.locator('.conteo span').textContent()).toBe('6 docentes');
    await page.getByRole('link', { name: 'Siguiente' }).click();
    await page.waitForURL((u) => u.searchParams.get('pagina') === '2');
    expect(new URL(page.url()).searchParams.get('profesor')).toBe(apellido);
    expect(await page.locator('article.docente h2').allTextContents()).toEqual([`Felipe ${apellido} 5`]);
  });

  it('has no serious accessibility problems, at 1280 and 375 px', async () => {
    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await sesion(docentes[4] ?? { email: '' }, viewport);
      await page.goto(`/comunidad/?profesor=${apellido}`);
      expect(await violacionesGraves(page)).toEqual([]);
    }
  });
});

describe('contact', () => {
  it("sends subject and message by email to the colleague, with the sender as Reply-To, never showing the colleague's address", async () => {
    const apellido = marca();
    const remitente = await docente('Rosa', `${apellido} Remitente`);
    const colega = await docente('Luis', `${apellido} Colega`, { cli: true });
    const page = await sesion(remitente);
    await page.goto(`/comunidad/?profesor=luis+${apellido}`);
    await page.getByRole('link', { name: /^Contactar a Luis/ }).click();
    await page.waitForURL(url(`/comunidad/${colega.id}/contactar`));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Contactar a Luis ${apellido} Colega`);
    expect(await page.content()).not.toContain(colega.email);

    await expect.poll(() => page.getByRole('button', { name: 'Enviar' }).isEnabled()).toBe(true);
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect(await mensajeDe(page, 'Asunto')).toBe('Debe ingresar un asunto');
    expect(await mensajeDe(page, 'Mensaje')).toBe('Debe ingresar un mensaje');

    const asunto = `Taller de fracciones ${apellido}`;
    await page.getByLabel('Asunto', { exact: true }).fill(asunto);
    await page.getByLabel('Mensaje', { exact: true }).fill('¿Compartimos la guía del taller?');
    const soltar = await retener(page, '**/api/usuarios/*/enviar-email/');
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect(await page.getByRole('button', { name: 'Enviando...' }).isDisabled()).toBe(true);
    soltar();
    await expect.poll(() => page.getByRole('heading', { name: 'Mensaje enviado!' }).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(colega.email);

    const correo = await waitForMail(inject('dataDir'), (m) => m.subject.startsWith(asunto));
    expect(correo?.to).toContain(colega.email);
    expect(correo?.text).toContain('¿Compartimos la guía del taller?');
    const crudo = readFileSync(path.join(inject('dataDir'), 'outbox', correo?.file ?? ''), 'utf8');
    expect(/^Reply-To: (.*)$/im.exec(crudo)?.[1]?.trim()).toBe(remitente.email);
    await page.getByRole('link', { name: 'Volver a la comunidad' }).click();
    await page.waitForURL(url('/comunidad/'));
  });

  it("from a profile: 'Contactar', Cancelar back to /comunidad/, and SPEC's failure message with the message kept", async () => {
    const apellido = marca();
    const remitente = await docente('Sara', `${apellido} Remitente`);
    const colega = await docente('Tomás', `${apellido} Colega`);
    const page = await sesion(remitente);
    await page.goto(`/perfil/${colega.id}`);
    await page.getByRole('link', { name: 'Contactar' }).click();
    await page.waitForURL(url(`/perfil/${colega.id}/contactar`));
    await page.getByLabel('Asunto', { exact: true }).fill('Consulta');
    await page.getByLabel('Mensaje', { exact: true }).fill('Mensaje que no llega');
    await page.route('**/api/usuarios/*/enviar-email/', responder(500, { detail: 'Error' }));
    await page.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(() => avisos(page, 'alert')).toEqual(['Hubo un error al enviar el correo']);
    expect(await page.getByLabel('Mensaje', { exact: true }).inputValue()).toBe('Mensaje que no llega');
    await page.unroute('**/api/usuarios/*/enviar-email/');
    await page.route(
      '**/api/usuarios/*/enviar-email/',
      responder(429, { detail: 'Enviaste demasiados mensajes en la última hora. Espera 12 minutos antes de enviar otro.' }),
    );
    await page.getByRole('button', { name: 'Enviar' }).click();
    await expect
      .poll(() => avisos(page, 'alert'))
      .toContain('Enviaste demasiados mensajes en la última hora. Espera 12 minutos antes de enviar otro.');
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await page.waitForURL(url('/comunidad/'));
  });
});

describe('profile views', () => {
  it("shows a colleague's name, school, specialties and 'Contactar'; one's own shows 'Editar mi perfil'", async () => {
    const apellido = marca();
    const colegios = (await api(tokenAdmin).GET('/api/colegios/')).data ?? [];
    const yo = await docente('Paula', `${apellido} Vista`);
    const colega = await docente('Raúl', `${apellido} Vista`, { colegio: colegios[2]?.nombre });
    await api(colega.token).POST('/api/usuarios/profesores/{id}/especialidades/', {
      params: { path: { id: colega.id } },
      body: { especialidad: 'Teatro escolar' },
    });
    const page = await sesion(yo);
    await page.goto(`/perfil/${colega.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Raúl ${apellido} Vista`);
    expect(await page.getByRole('region', { name: 'Establecimientos' }).textContent()).toContain(colegios[2]?.nombre ?? '?');
    expect(await page.getByRole('list', { name: 'Especialidades' }).textContent()).toBe('Teatro escolar');
    expect(await page.getByRole('link', { name: 'Contactar' }).getAttribute('href')).toBe(`/perfil/${colega.id}/contactar`);
    expect(await page.getByRole('link', { name: 'Editar mi perfil' }).count()).toBe(0);
    expect(await page.content()).not.toContain(colega.email);
    expect(await violacionesGraves(page)).toEqual([]);

    for (const ruta of ['/perfil/', `/perfil/${yo.id}`]) {
      await page.goto(ruta);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Paula ${apellido} Vista`);
      await page.getByRole('link', { name: 'Editar mi perfil' }).click();
      await page.waitForURL(url('/perfil/editar'));
    }
    const ausente = await page.goto('/perfil/99999999');
    expect(ausente?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Docente no encontrado');
  });
});

describe('/perfil/editar', () => {
  it("has 'Información' and 'Mis publicaciones'; an admin (no teacher profile) gets no specialty or area tabs", async () => {
    const admin = await docente('Admin', `${marca()} Nuevo`, { admin: true });
    const page = await sesion(admin);
    await page.goto('/perfil/editar');
    expect(await page.locator('.pestanas-verticales a').allTextContents()).toEqual([
      'Foto de perfil',
      'Información personal',
      'Correos de notificaciones',
      'Ahorro de datos',
      'Privacidad',
    ]);
    await page.getByRole('link', { name: 'Mis publicaciones' }).click();
    await page.waitForURL(url('/perfil/editar?pestana=publicaciones'));
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Manuales 0', 'Cápsulas 0', 'Materiales docentes 0']);
    expect(await page.locator('.carrusel .vacio').allTextContents()).toEqual(['No hay manuales', 'No hay cápsulas', 'No hay materiales']);
  });

  it('edits personal information with the rules of SPEC section 5 (read-only name, rut, nationality, birth date)', async () => {
    const yo = await docente('Inés', `${marca()} Datos`);
    const page = await sesion(yo);
    await page.goto('/perfil/editar');
    expect(await page.locator('.pestanas-verticales a').allTextContents()).toEqual([
      'Foto de perfil',
      'Información personal',
      'Especialidades',
      'Áreas',
      'Niveles',
      'Correos de notificaciones',
      'Ahorro de datos',
      'Privacidad',
    ]);
    await page.getByRole('link', { name: 'Información personal' }).click();
    await expect.poll(() => page.locator('#datos').isVisible()).toBe(true);
    expect(await page.locator('#foto').isVisible()).toBe(false);
    expect(page.url()).toBe(url('/perfil/editar#datos'));
    await page.getByRole('button', { name: 'Editar información personal' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar información personal' });
    await expect.poll(() => modal.getByLabel('Teléfono').isVisible()).toBe(true);
    for (const soloLectura of ['Nombre', 'RUT', 'Nacionalidad', 'Fecha de nacimiento']) {
      expect(await modal.getByLabel(soloLectura, { exact: true }).getAttribute('readonly'), soloLectura).toBe('');
    }
    expect(await modal.getByLabel('Género').locator('option').allTextContents()).toEqual(['Seleccionar', 'Masculino', 'Femenino', 'Otro']);

    await modal.getByLabel('Correo').fill('no-es-correo');
    await modal.getByLabel('Teléfono').fill('12345');
    await modal.getByLabel('Teléfono').blur();
    await expect.poll(() => mensajeDe(page, 'Teléfono')).toBe('Debe ingresar un telefono válido');
    await modal.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(page, 'Correo')).toBe('Debe ingresar un email válido');
    expect(await mensajeDe(page, 'Teléfono')).toBe('Debe ingresar un telefono válido');
    expect(await mensajeDe(page, 'Género')).toBe('Debe ingresar un género');
    await modal.getByLabel('Teléfono').fill('');
    await modal.getByLabel('Teléfono').blur();
    await expect.poll(() => mensajeDe(page, 'Teléfono')).toBe('Debe ingresar un telefono');

    const nuevo = correoNuevo('ines.nueva');
    await modal.getByLabel('Correo').fill(nuevo);
    await modal.getByLabel('Género').selectOption('Femenino');
    await modal.getByLabel('Teléfono').fill('9 8765 4321');
    await modal.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    await expect.poll(() => avisos(page, 'status')).toContain('¡Tu información personal se actualizó correctamente!');
    const datos = page.locator('dl.datos');
    expect(await datos.textContent()).toContain('+56 9 8765 4321');
    expect(await datos.textContent()).toContain(nuevo);
    await page.reload();
    expect(await page.locator('dl.datos').textContent()).toContain('Femenino');
    expect(await page.locator('dl.datos').textContent()).toContain('+56 9 8765 4321');
    // Another account's address: the server's 409, on the field.
    await page.getByRole('button', { name: 'Editar información personal' }).click();
    await expect.poll(() => modal.getByLabel('Correo').isVisible()).toBe(true);
    await modal.getByLabel('Correo').fill(ADMIN.email);
    await modal.getByRole('button', { name: 'Guardar' }).click();
    expect(await mensajeDe(page, 'Correo')).toBe('Ya existe una cuenta con ese correo');
    await page.keyboard.press('Escape');
    await expect.poll(() => modal.isVisible()).toBe(false);
  });

  it('adds specialties from the list or written, up to 5 (the add button hides at 5), and removes them', async () => {
    const yo = await docente('Olga', `${marca()} Especialidades`);
    const page = await sesion(yo, MOBILE);
    await page.goto('/perfil/editar#especialidades');
    await expect.poll(() => page.locator('#especialidades').isVisible()).toBe(true);
    const agregar = page.getByRole('button', { name: 'Agregar especialidad' });
    const modal = page.getByRole('dialog', { name: 'Agregar especialidad' });
    const selector = modal.getByLabel('Especialidad', { exact: true });

    await agregar.click();
    await expect.poll(() => selector.isVisible()).toBe(true);
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    expect(await mensajeDe(page, 'Especialidad')).toBe('Debe seleccionar un especialidad');
    await selector.selectOption('Educación diferencial');
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    const chips = page.getByRole('list', { name: 'Especialidades' }).locator('li span');
    expect(await chips.allTextContents()).toEqual(['Educación diferencial']);

    // Written: 'Otra', with the length rules.
    await agregar.click();
    await expect.poll(() => selector.isVisible()).toBe(true);
    expect(await selector.locator('option').allTextContents()).not.toContain('Educación diferencial');
    await selector.selectOption({ label: 'Otra (escribir)' });
    await modal.getByLabel('Nombre de la especialidad').fill('Tea');
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    expect(await mensajeDe(page, 'Nombre de la especialidad')).toBe('Debe ser mayor a 4 caracteres');
    await modal.getByLabel('Nombre de la especialidad').fill('Teatro en el aula');
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    await expect.poll(() => chips.allTextContents()).toEqual(['Educación diferencial', 'Teatro en el aula']);

    for (const nombre of ['Huerto escolar', 'Ajedrez educativo', 'Radio escolar']) {
      await agregar.click();
      await expect.poll(() => selector.isVisible()).toBe(true);
      await selector.selectOption({ label: 'Otra (escribir)' });
      await modal.getByLabel('Nombre de la especialidad').fill(nombre);
      await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
      await expect.poll(() => modal.isVisible()).toBe(false);
    }
    await expect.poll(() => chips.count()).toBe(5);
    expect(await agregar.count()).toBe(0);
    expect(await page.locator('.ayuda-lista').textContent()).toBe('5 de 5 especialidades');

    await page.getByRole('button', { name: 'Quitar la especialidad Teatro en el aula' }).click();
    await expect.poll(() => chips.count()).toBe(4);
    expect(await agregar.isVisible()).toBe(true);
    await page.reload();
    await expect
      .poll(() => page.getByRole('list', { name: 'Especialidades' }).locator('li span').allTextContents())
      .toEqual(['Ajedrez educativo', 'Educación diferencial', 'Huerto escolar', 'Radio escolar']);
    // A failed removal says so (SPEC section 8).
    await page.route('**/api/usuarios/profesores/*/especialidades/**', responder(500, { detail: 'Error' }));
    await page.getByRole('button', { name: 'Quitar la especialidad Radio escolar' }).click();
    await expect.poll(() => avisos(page, 'alert')).toEqual(['No se pudo eliminar la especialidad Radio escolar del perfil']);
  });

  it('adds and removes areas of the curriculum, never offering an owned one', async () => {
    const yo = await docente('Pía', `${marca()} Areas`);
    const page = await sesion(yo);
    await page.goto('/perfil/editar');
    await page.getByRole('link', { name: 'Áreas' }).click();
    const modal = page.getByRole('dialog', { name: 'Agregar área' });
    await page.getByRole('button', { name: 'Agregar área' }).click();
    await expect.poll(() => modal.getByLabel('Área').isVisible()).toBe(true);
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    expect(await mensajeDe(page, 'Área')).toBe('Debe seleccionar un area');
    await modal.getByLabel('Área').selectOption('Matemática');
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    const chips = page.getByRole('list', { name: 'Áreas' }).locator('li span');
    await expect.poll(() => chips.allTextContents()).toEqual(['Matemática']);
    await page.getByRole('button', { name: 'Agregar área' }).click();
    await expect.poll(() => modal.getByLabel('Área').isVisible()).toBe(true);
    expect(await modal.getByLabel('Área').locator('option').allTextContents()).not.toContain('Matemática');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Quitar el área Matemática' }).click();
    await expect.poll(() => page.locator('#areas .vacio').textContent()).toBe('Aún no agregas áreas.');
  });

  it('adds levels in school-year order, never offering an owned one; the profile shows them after the areas; removes them', async () => {
    const yo = await docente('Noa', `${marca()} Niveles`);
    const page = await sesion(yo);
    await page.goto('/perfil/editar');
    await page.getByRole('link', { name: 'Niveles' }).click();
    await expect.poll(() => page.locator('#niveles').isVisible()).toBe(true);
    expect(page.url()).toBe(url('/perfil/editar#niveles'));
    const pista = 'Con tus áreas y niveles elegimos lo que ves en Novedades para ti, en Inicio.';
    expect(await page.locator('#niveles .pista-inicio').textContent()).toBe(pista);
    expect(await page.locator('#areas .pista-inicio').textContent()).toBe(pista);
    expect(await page.locator('#niveles .vacio').textContent()).toBe('Aún no agregas niveles.');

    const modal = page.getByRole('dialog', { name: 'Agregar nivel' });
    const agregar = async (nivel: string) => {
      await page.getByRole('button', { name: 'Agregar nivel' }).click();
      await expect.poll(() => modal.getByLabel('Nivel').isVisible()).toBe(true);
      await modal.getByLabel('Nivel').selectOption(nivel);
      await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
      await expect.poll(() => modal.isVisible()).toBe(false);
    };
    await page.getByRole('button', { name: 'Agregar nivel' }).click();
    await expect.poll(() => modal.getByLabel('Nivel').isVisible()).toBe(true);
    const opciones = await modal.getByLabel('Nivel').locator('option').allTextContents();
    expect(opciones.slice(0, 5)).toEqual([
      'Seleccionar',
      'Primer Nivel de Transición',
      'Segundo Nivel de Transición',
      '1° básico',
      '2° básico',
    ]);
    expect(opciones.slice(-2)).toEqual(['3° medio', '4° medio']);
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    expect(await mensajeDe(page, 'Nivel')).toBe('Debe seleccionar un nivel');
    await modal.getByLabel('Nivel').selectOption('1° medio');
    await modal.getByRole('button', { name: 'Agregar', exact: true }).click();
    await expect.poll(() => avisos(page, 'status')).toContain('Se agregó el nivel 1° medio');
    await agregar('7° básico');
    const chips = page.getByRole('list', { name: 'Niveles' }).locator('li span');
    // The server answers them in school-year order, whatever the order they were added in.
    await expect.poll(() => chips.allTextContents()).toEqual(['7° básico', '1° medio']);
    await page.getByRole('button', { name: 'Agregar nivel' }).click();
    await expect.poll(() => modal.getByLabel('Nivel').isVisible()).toBe(true);
    const restantes = await modal.getByLabel('Nivel').locator('option').allTextContents();
    expect(restantes).not.toContain('7° básico');
    expect(restantes).not.toContain('1° medio');
    expect(restantes).toHaveLength(opciones.length - 2);
    await page.keyboard.press('Escape');

    for (const ruta of ['/perfil/', `/perfil/${yo.id}`]) {
      await page.goto(ruta);
      expect(await page.locator('.perfil-detalle h2').allTextContents()).toEqual([
        'Establecimientos',
        'Especialidades',
        'Áreas',
        'Niveles',
      ]);
      expect(await page.getByRole('region', { name: 'Niveles' }).getByRole('listitem').allTextContents()).toEqual([
        '7° básico',
        '1° medio',
      ]);
    }

    await page.goto('/perfil/editar#niveles');
    await page.getByRole('button', { name: 'Quitar el nivel 7° básico' }).click();
    await expect.poll(() => chips.allTextContents()).toEqual(['1° medio']);
    await page.getByRole('button', { name: 'Quitar el nivel 1° medio' }).click();
    await expect.poll(() => page.locator('#niveles .vacio').textContent()).toBe('Aún no agregas niveles.');
    await page.goto('/perfil/');
    expect(await page.getByRole('region', { name: 'Niveles' }).locator('.vacio').textContent()).toBe('Sin niveles registrados');
  });

  it('shows the levels before JavaScript, as the areas, and reads well at 1280 and 375 px', async () => {
    const yo = await docente('Olga', `${marca()} Niveles`);
    for (const nivel of ['4° medio', 'Segundo Nivel de Transición']) {
      const { response } = await api(yo.token).POST('/api/usuarios/profesores/{id}/niveles/', {
        params: { path: { id: yo.id } },
        body: { nivel },
      });
      expect(response.status).toBe(201);
    }
    const context = await browser.newContext({ baseURL: inject('baseUrl'), viewport: MOBILE, locale: 'es-CL', javaScriptEnabled: false });
    const sinJs = await context.newPage();
    await ingresarPorApi(sinJs, { email: yo.email, password: CLAVE });
    await sinJs.goto('/perfil/editar');
    // Every section shows, one under the other; the chips are there, their buttons wait for scripts.
    expect(await sinJs.locator('#niveles').isVisible()).toBe(true);
    expect(await sinJs.getByRole('list', { name: 'Niveles' }).locator('li span').allTextContents()).toEqual([
      'Segundo Nivel de Transición',
      '4° medio',
    ]);
    expect(await sinJs.getByRole('button', { name: 'Agregar nivel' }).isDisabled()).toBe(true);
    await sinJs.goto('/perfil/');
    expect(await sinJs.getByRole('region', { name: 'Niveles' }).getByRole('listitem').allTextContents()).toEqual([
      'Segundo Nivel de Transición',
      '4° medio',
    ]);

    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await sesion(yo, viewport);
      await page.goto('/perfil/editar#niveles');
      await expect.poll(() => page.locator('#niveles').isVisible()).toBe(true);
      expect(await violacionesGraves(page)).toEqual([]);
      await page.getByRole('button', { name: 'Agregar nivel' }).click();
      await expect.poll(() => page.getByRole('dialog').getByLabel('Nivel').isVisible()).toBe(true);
      expect(await violacionesGraves(page)).toEqual([]);
      await page.goto('/perfil/');
      expect(await violacionesGraves(page)).toEqual([]);
    }
  });

  it('uploads, crops, zooms and rotates a photo; the cropper loads only with the modal; the top bar shows the new photo without a reload', async () => {
    const yo = await docente('Marta', `${marca()} Foto`);
    const page = await sesion(yo);
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') chunks.push(new URL(r.url()).pathname);
    });
    await page.goto('/perfil/editar');
    expect(chunks.some((c) => c.includes('Recorte'))).toBe(false);
    expect(await page.locator('.barra .perfil img').count()).toBe(0);

    // Left half red, right half blue, a green disc in the middle.
    const original = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#1e50d2' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="900" height="600"><rect width="450" height="600" fill="#d21e1e"/><circle cx="450" cy="300" r="90" fill="#1ed250"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toBuffer();

    const subir = async (pasos: (modal: ReturnType<Page['getByRole']>) => Promise<void>) => {
      await page.getByRole('button', { name: 'Cambiar foto' }).click();
      const modal = page.getByRole('dialog', { name: 'Editar foto de perfil' });
      await expect.poll(() => modal.isVisible()).toBe(true);
      await expect.poll(() => chunks.some((c) => c.includes('Recorte'))).toBe(true);
      // Anything but an image is ignored.
      await modal.locator('input[type=file]').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
      expect(await modal.getByRole('alert').textContent()).toBe('Elige un archivo de imagen (JPG, PNG o WebP).');
      await modal.locator('input[type=file]').setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: original });
      await expect.poll(() => modal.locator('.reactEasyCrop_CropAreaRound').isVisible()).toBe(true);
      await pasos(modal);
      await expect.poll(() => modal.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);
      await modal.getByRole('button', { name: 'Guardar' }).click();
      await expect.poll(() => modal.isVisible()).toBe(false);
      const src = (await page.locator('.barra .perfil img').getAttribute('src')) ?? '';
      expect(src).toMatch(new RegExp(`^/miniaturas/usuarios/${yo.id}\\?v=\\w+$`));
      expect(await page.locator('.foto-actual img').getAttribute('src')).toBe(src);
      const res = await page.request.get(url(src));
      expect(res.headers()['content-type']).toBe('image/webp');
      const imagen = sharp(await res.body());
      expect(await imagen.metadata()).toMatchObject({ width: 200, height: 200, format: 'webp' });
      const { data } = await imagen.removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return { src, color: (x: number, y: number) => Array.from(data.subarray((y * 200 + x) * 3, (y * 200 + x) * 3 + 3)) };
    };
    const rojo = ([r = 0, g = 0, b = 0]: number[]) => r > 150 && g < 90 && b < 90;
    const azul = ([r = 0, g = 0, b = 0]: number[]) => b > 150 && r < 90 && g < 120;
    const verde = ([r = 0, g = 0, b = 0]: number[]) => g > 150 && r < 90 && b < 120;

    // Zoom 1, turned left: the red half ends at the bottom, the disc stays small.
    const primera = await subir(async (modal) => {
      await modal.getByRole('button', { name: 'Girar a la izquierda' }).click();
    });
    await expect.poll(() => avisos(page, 'status')).toContain('Tu foto de perfil se actualizo correctamente!');
    expect(rojo(primera.color(100, 190)), String(primera.color(100, 190))).toBe(true);
    expect(azul(primera.color(100, 10)), String(primera.color(100, 10))).toBe(true);
    expect(verde(primera.color(100, 100))).toBe(true);
    expect(verde(primera.color(100, 40))).toBe(false);

    // Zoom 2.5, turned right twice then left once (= right): the disc fills the middle, red top-left.
    const segunda = await subir(async (modal) => {
      await modal.getByLabel('Zoom').fill('2.5');
      await modal.getByRole('button', { name: 'Girar a la derecha' }).click();
      await modal.getByRole('button', { name: 'Girar a la derecha' }).click();
      await modal.getByRole('button', { name: 'Girar a la izquierda' }).click();
    });
    expect(segunda.src).not.toBe(primera.src);
    expect(verde(segunda.color(100, 40)), String(segunda.color(100, 40))).toBe(true);
    expect(rojo(segunda.color(4, 4)), String(segunda.color(4, 4))).toBe(true);
    expect(azul(segunda.color(195, 195)), String(segunda.color(195, 195))).toBe(true);

    // The small version for the directory, and the photo after a reload.
    const min = await page.request.get(url(segunda.src.replace('/usuarios/', '/usuarios_min/')));
    expect(await sharp(await min.body()).metadata()).toMatchObject({ width: 96, height: 96 });
    await page.reload();
    expect(await page.locator('.barra .perfil img').getAttribute('src')).toBe(segunda.src);
  });

  it("says 'Tu foto de perfil no se pudo actualizar :(' when the upload fails", async () => {
    const yo = await docente('Nora', `${marca()} Foto`);
    const page = await sesion(yo, MOBILE);
    await page.goto('/perfil/editar');
    await page.route('**/api/usuarios/*/foto/', responder(500, { detail: 'Error' }));
    await page.getByRole('button', { name: 'Cambiar foto' }).click();
    const modal = page.getByRole('dialog', { name: 'Editar foto de perfil' });
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    await modal.locator('input[type=file]').setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => modal.getByRole('button', { name: 'Guardar' }).isEnabled()).toBe(true);
    await modal.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => avisos(page, 'alert')).toEqual(['Tu foto de perfil no se pudo actualizar :(']);
    expect(await modal.isVisible()).toBe(true);
    expect(await page.locator('.barra .perfil img').count()).toBe(0);
  });

  it('has no serious accessibility problems in the tabs and the modals', async () => {
    const yo = await docente('Lía', `${marca()} Accesible`);
    const page = await sesion(yo);
    await page.goto('/perfil/editar');
    expect(await violacionesGraves(page)).toEqual([]);
    await page.getByRole('button', { name: 'Cambiar foto' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    expect(await violacionesGraves(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Información personal' }).click();
    await page.getByRole('button', { name: 'Editar información personal' }).click();
    await expect.poll(() => page.getByRole('dialog').getByLabel('Teléfono').isVisible()).toBe(true);
    expect(await violacionesGraves(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.goto('/perfil/editar?pestana=publicaciones');
    expect(await violacionesGraves(page)).toEqual([]);
  });
});

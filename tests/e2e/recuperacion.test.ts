/**
 * Password reset (/reestablecer-contraseña/, /ingresar/reestablecer-contraseña/) and the new
 * password of the emailed link (/cambiar-contraseña/{token}): docs/SPEC.md sections 2, 4, 5 and 8.
 * The server lets one address ask for 5 resets in 15 minutes, so the statuses the server would
 * give only after many calls (and failures of the network) are answered by the test.
 */
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ANCHOS,
  abrir,
  correoNuevo,
  docenteActivo,
  enlaceEnviadoA,
  hidratada,
  ingresar,
  invitar,
  mensajeDe,
  navegador,
  responder,
  retener,
  sinRespuesta,
  url,
} from './helpers.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await navegador();
});
afterAll(async () => {
  await browser?.close();
});

const RECUPERAR = '**/api/usuarios/recuperar-cuenta/';

/**
 * An active teacher who asked for a reset (as the reset page would): their address and the mailed
 * link. Asked from 127.0.0.2: the server lets one network address ask for 5 resets in 15 minutes,
 * and this file's pages spend 127.0.0.1's.
 */
async function pedidoPorApi(prefijo: string): Promise<{ email: string; enlace: string }> {
  const email = correoNuevo(prefijo);
  await docenteActivo(email, 'Inicial123');
  const { hostname, port } = new URL(inject('baseUrl'));
  const estado = await new Promise<number>((resolve, reject) => {
    const pedido = http.request(
      {
        host: hostname,
        port,
        path: '/api/usuarios/recuperar-cuenta/',
        method: 'POST',
        localAddress: '127.0.0.2',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    pedido.on('error', reject);
    pedido.end(JSON.stringify({ email }));
  });
  expect(estado).toBe(200);
  return { email, enlace: await enlaceEnviadoA(email, '/cambiar-contraseña/') };
}

async function pedir(page: Page, email: string) {
  await page.getByLabel('Correo').fill(email);
  await page.getByRole('button', { name: 'Enviar' }).click();
}

describe('reset addresses', () => {
  it('answers both paths, written with ñ or percent-encoded', async () => {
    const page = await abrir(browser);
    for (const path of ['/reestablecer-contraseña/', '/ingresar/reestablecer-contraseña/']) {
      for (const escrita of [path, encodeURI(path)]) {
        const respuesta = await page.goto(escrita);
        expect(respuesta?.status()).toBe(200);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Recupera tu contraseña');
      }
    }
  });
});

describe.each(ANCHOS)('/reestablecer-contraseña/ (%s)', (ancho, viewport) => {
  it('shows the email messages on blur and on submit, and Volver goes to /ingresar/', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/reestablecer-contraseña/');
    await hidratada(page);
    const email = page.getByLabel('Correo');
    await email.focus();
    await email.blur();
    expect(await mensajeDe(page, 'Correo')).toBe('Debe ingresar un email');
    await email.fill('profe');
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect(await mensajeDe(page, 'Correo')).toBe('Debe ingresar un email válido');
    expect(await email.inputValue()).toBe('profe');
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL(url('/ingresar/'));
  });

  it(`says where the mail went, with an Ingresar button, and signs out whoever was signed in`, async () => {
    const email = correoNuevo(`reset-${ancho === 'móvil' ? 'm' : 'd'}`);
    await docenteActivo(email, 'Inicial123');
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/ingresar/reestablecer-contraseña/');
    const soltar = await retener(page, RECUPERAR);
    await pedir(page, email);
    expect(await page.getByRole('button', { name: 'Enviar' }).isDisabled()).toBe(true);
    soltar();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe(`Se envió un correo a ${email} con las instrucciones para cambiar tu contraseña.`);
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('ed_'))).toEqual([]);
    const enlace = await enlaceEnviadoA(email, '/cambiar-contraseña/');
    expect(new URL(enlace).pathname).toMatch(/^\/cambiar-contrase%C3%B1a\/[\w-]+$/);
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL(url('/ingresar/'));
    await page.goto('/');
    expect(page.url()).toBe(url('/ingresar/'));
  });

  it(ancho === 'móvil' ? "says 'Usuario no activo' (403)" : "says 'Usuario no encontrado' (404)", async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/reestablecer-contraseña/');
    if (ancho === 'móvil') {
      const pendiente = correoNuevo('pendiente');
      await invitar(pendiente, 'Docente', 'Sin Activar');
      await pedir(page, pendiente);
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Usuario no activo');
      expect(await page.getByLabel('Correo').inputValue()).toBe(pendiente);
    } else {
      await pedir(page, 'nadie@colegio.cl');
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Usuario no encontrado');
      expect(await page.getByLabel('Correo').inputValue()).toBe('nadie@colegio.cl');
    }
  });

  it('maps every other answer to the messages of docs/SPEC.md section 8', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/reestablecer-contraseña/');
    const casos: [Parameters<typeof page.route>[1], string][] = [
      [responder(404, { detail: 'Usuario no encontrado' }), 'Usuario no encontrado'],
      [responder(403, { detail: 'Usuario no activo' }), 'Usuario no activo'],
      [responder(500, { detail: 'Error' }), 'El email ingresado no es válido'],
      [responder(400, { detail: 'x', errors: { email: ['Debe ingresar un email válido'] } }), 'El email ingresado no es válido'],
      [
        responder(429, { detail: 'Demasiados intentos. Espera 12 minutos antes de volver a intentarlo.' }),
        'Demasiados intentos. Espera 12 minutos antes de volver a intentarlo.',
      ],
      [sinRespuesta, 'Hubo un error, no se pudo enviar el mail'],
    ];
    for (const [respuesta, mensaje] of casos) {
      await page.unroute(RECUPERAR);
      await page.route(RECUPERAR, respuesta);
      await pedir(page, 'ana@colegio.cl');
      await expect.poll(() => page.getByRole('alert').textContent()).toBe(mensaje);
    }
  });
});

const CAMBIAR = '**/api/usuarios/cambiar-contrasena/';
const VERIFICAR = '**/api/usuarios/cambiar-contrasena/*';

async function nuevaContrasena(page: Page, password: string, confirmacion = password) {
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByLabel('Confirmar contraseña').fill(confirmacion);
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
}

describe.each(ANCHOS)('/cambiar-contraseña/{token} (%s)', (ancho, viewport) => {
  it('checks the token with a spinner, sets the password and says so, with a button to /ingresar/', async () => {
    const { email, enlace } = await pedidoPorApi(`cambio-${ancho === 'móvil' ? 'm' : 'd'}`);
    const page = await abrir(browser, viewport);
    const soltar = await retener(page, VERIFICAR);
    await page.goto(enlace);
    expect(await page.locator('[aria-busy="true"]').textContent()).toBe('Verificando el enlace…');
    soltar();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Crea una nueva contraseña');
    expect(await page.getByText(email).isVisible()).toBe(true);

    // docs/SPEC.md section 5, on blur and on submit.
    const clave = page.getByLabel('Contraseña', { exact: true });
    await clave.focus();
    await clave.blur();
    expect(await mensajeDe(page, 'Contraseña')).toBe('Debe ingresar una contraseña');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    expect(await mensajeDe(page, 'Confirmar contraseña')).toBe('Debe ingresar una contraseña');
    await nuevaContrasena(page, 'Ab1');
    expect(await mensajeDe(page, 'Contraseña')).toBe('La contraseña debe tener entre 8 a 100 caracteres');
    await nuevaContrasena(page, 'solominusculas1');
    expect(await mensajeDe(page, 'Contraseña')).toBe('Contraseña debe incluir mayúsculas, minúsculas y numeros');
    await nuevaContrasena(page, 'Nueva12345', 'Nueva12346');
    expect(await mensajeDe(page, 'Contraseña')).toBe('Contraseñas no coinciden');
    expect(await mensajeDe(page, 'Confirmar contraseña')).toBe('Contraseñas no coinciden');
    expect(await page.getByLabel('Confirmar contraseña').inputValue()).toBe('Nueva12346');

    await nuevaContrasena(page, 'Nueva12345!');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Contraseña cambiada exitosamente!');
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL(url('/ingresar/'));
    await ingresar(page, email, 'Nueva12345!');
    expect(page.url()).toBe(url('/'));

    // The link is single use.
    await page.goto(enlace);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Token inválido o expirado');
  });

  it("says 'Token inválido o expirado' with a button to /ingresar/", async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/cambiar-contraseña/token-que-no-existe');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Token inválido o expirado');
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL(url('/ingresar/'));
  });

  it('sends a missing token to /ingresar/', async () => {
    const page = await abrir(browser, viewport);
    await page.goto('/cambiar-contraseña/');
    await page.waitForURL(url('/ingresar/'));
  });

  it('signs out whoever is signed in as it opens', async () => {
    const page = await abrir(browser, viewport);
    await ingresar(page);
    await page.goto('/cambiar-contraseña/token-que-no-existe');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Token inválido o expirado');
    await expect.poll(async () => (await page.context().cookies()).filter((c) => c.name.startsWith('ed_')).length).toBe(0);
    await page.goto('/');
    expect(page.url()).toBe(url('/ingresar/'));
  });

  it('maps the answers of the change to the messages of docs/SPEC.md section 8', async () => {
    const page = await abrir(browser, viewport);
    await page.route(VERIFICAR, responder(200, { email: 'ana@colegio.cl' }));
    await page.goto('/cambiar-contraseña/token-de-prueba');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Crea una nueva contraseña');
    const casos: [Parameters<typeof page.route>[1], string][] = [
      [responder(404, { detail: 'Token inválido o expirado' }), 'Token no válido'],
      [responder(400, { detail: 'x' }), 'Token no válido'],
      [responder(500, { detail: 'Error' }), 'El email ingresado no es válido'],
      [sinRespuesta, 'Hubo un error, no se pudo cambiar la contraseña'],
    ];
    for (const [respuesta, mensaje] of casos) {
      await page.unroute(CAMBIAR);
      await page.route(CAMBIAR, respuesta);
      await nuevaContrasena(page, 'Nueva12345');
      await expect.poll(() => page.getByRole('alert').textContent()).toBe(mensaje);
      expect(await page.getByLabel('Contraseña', { exact: true }).inputValue()).toBe('Nueva12345');
    }
  });
});

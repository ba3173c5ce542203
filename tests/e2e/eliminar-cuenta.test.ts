/**
 * Leaving the platform in the browser (issue 31, decision 0059): a teacher opens 'Eliminar mi
 * cuenta', is refused with a wrong password, schedules the deletion, sees the date, cancels; then
 * schedules again and signing in cancels it with a notice. An admin finds 'Solicitudes de datos' in
 * the console's menu, sees the pending deletion, acts on a written request (the reason is
 * required) and cancels from the list.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abrir, abrirComo, correoNuevo, docenteActivo, ingresar, navegador, toast, url } from './helpers.ts';

let browser: Browser;
const docente = { email: correoNuevo('baja'), password: 'Docente2026' };
const escrita = { email: correoNuevo('baja.escrita'), password: 'Docente2026' };

beforeAll(async () => {
  browser = await navegador();
  await docenteActivo(docente.email, docente.password);
  await docenteActivo(escrita.email, escrita.password);
});
afterAll(async () => {
  await browser?.close();
});

describe('Eliminar mi cuenta', () => {
  it('refuses a wrong password, schedules, shows the date and cancels; signing in cancels too', async () => {
    const page = await abrirComo(browser, docente);
    await page.goto(url('/perfil/eliminar-cuenta'));
    await page.getByRole('heading', { name: 'Qué pasa si eliminas tu cuenta' }).waitFor();
    await page.getByLabel('Eliminar también mis aportes').check();
    await page.getByLabel('Tu contraseña, para confirmar').fill('no-es-la-clave');
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('La contraseña no es correcta. Tu cuenta no se eliminará.');
    // The choice is kept for the next try.
    expect(await page.getByLabel('Eliminar también mis aportes').isChecked()).toBe(true);

    await page.getByLabel('Tu contraseña, para confirmar').fill(docente.password);
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    const titulo = page.getByRole('heading', { name: /^Tu cuenta se eliminará el \d{1,2} de \w+ de \d{4}$/ });
    await titulo.waitFor();
    await page.screenshot({ path: '/tmp/eliminar-cuenta-programada.png', fullPage: true });
    expect(await page.getByText('También se eliminarán tus publicaciones').count()).toBe(1);

    await page.getByRole('button', { name: 'Cancelar la eliminación' }).click();
    await page.getByText('Cancelamos la eliminación de tu cuenta. Todo sigue como antes.').waitFor();
    await page.getByRole('heading', { name: 'Qué pasa si eliminas tu cuenta' }).waitFor();

    // Scheduled again, then a sign-in in another browser cancels it, and says so.
    await page.getByLabel('Tu contraseña, para confirmar').fill(docente.password);
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await titulo.waitFor();
    const otra = await abrir(browser);
    await ingresar(otra, docente.email, docente.password);
    await toast(otra, 'Cancelamos la eliminación de tu cuenta porque volviste a ingresar');
    await otra.goto(url('/perfil/eliminar-cuenta'));
    await otra.getByRole('heading', { name: 'Qué pasa si eliminas tu cuenta' }).waitFor();
  });
});

describe('the console: Solicitudes de datos', () => {
  it('shows pending deletions, asks for the reason of a written request, and cancels', async () => {
    const page = await abrirComo(browser);
    await page.goto(url('/admin'));
    await page.getByRole('navigation', { name: 'Administración' }).getByRole('link', { name: 'Solicitudes de datos' }).click();
    await page.getByRole('heading', { name: 'Solicitudes de datos', level: 1 }).waitFor();

    // A written request of access: what is held about the account, shown here and registered.
    await page.getByRole('button', { name: 'Ver sus datos' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Escribe el correo de la cuenta');
    await page.getByLabel('Correo del docente').fill(escrita.email);
    await page.getByLabel('Solicitud recibida').fill('Carta de acceso del 2 de marzo');
    await page.getByRole('button', { name: 'Ver sus datos' }).click();
    const datos = page.locator('[data-acceso]');
    await datos.waitFor();
    expect(await datos.locator('#datos-perfil li').allTextContents()).toContain(`Correo: ${escrita.email}`);
    expect(await datos.locator('#datos-sesiones h3').textContent()).toMatch(/^Sesiones \(\d+\)$/);
    await page.screenshot({ path: '/tmp/admin-solicitudes-acceso.png', fullPage: true });
    await page.goto(url('/admin/solicitudes'));

    await page.getByLabel('Correo de la cuenta').fill(escrita.email);
    await page.getByRole('button', { name: 'Eliminar la cuenta' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/^Escribe el motivo/);

    await page.getByLabel('Motivo').fill('Carta recibida el 3 de marzo');
    await page.getByRole('button', { name: 'Eliminar la cuenta' }).click();
    await page.getByText('Programamos la eliminación de la cuenta para dentro de 14 días.').waitFor();
    const fila = page.locator('tr[data-eliminacion]', { hasText: escrita.email });
    await fila.waitFor();
    expect(await page.locator('tr', { hasText: 'Carta recibida el 3 de marzo' }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/admin-solicitudes.png', fullPage: true });

    await fila.getByRole('button', { name: /^Cancelar la eliminación de/ }).click();
    await page.getByText('Cancelamos la eliminación de la cuenta.').waitFor();
    expect(await page.locator('[data-eliminacion]', { hasText: escrita.email }).count()).toBe(0);

    const csv = await page.request.get(url('/api/admin/solicitudes/exportar/?formato=csv'));
    expect(csv.status()).toBe(200);
    const registro = await csv.text();
    expect(registro).toContain('Carta recibida el 3 de marzo');
    expect(registro).toContain('Carta de acceso del 2 de marzo');
  });
});

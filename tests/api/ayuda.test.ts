import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(() => t.close());

describe('POST /api/usuarios/{id}/enviar-email-ayuda/', () => {
  it('delivers the message to HELP_EMAIL with the teacher as reply-to', async () => {
    const user = await t.createUser({ email: 'ayuda.docente@example.cl', nombre: 'Carla' });
    const { access } = await t.login(user.email);
    const res = await t.call('POST', `/api/usuarios/${user.id}/enviar-email-ayuda/`, {
      token: access,
      json: { id_usuario_sender: user.id, asunto: 'Reclamo', mensaje: 'No puedo descargar la guía.' },
    });
    expect(res.status).toBe(200);
    const mail = t.mails.at(-1);
    expect(mail).toMatchObject({
      to: 'ayuda@example.cl',
      replyTo: 'ayuda.docente@example.cl',
      subject: '[Centro de ayuda] Reclamo de Carla Pérez',
    });
    expect(mail?.text).toContain('No puedo descargar la guía.');
  });

  it('validates with the form messages', async () => {
    const user = await t.createUser();
    const { access } = await t.login(user.email);
    const res = await t.call('POST', `/api/usuarios/${user.id}/enviar-email-ayuda/`, {
      token: access,
      json: { asunto: '', mensaje: '   ' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual({ asunto: ['Debe ingresar un asunto'], mensaje: ['Debe ingresar un mensaje'] });
  });

  it("cannot be sent in another user's name", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const { access } = await t.login(a.email);
    const json = { asunto: 'Ayuda', mensaje: 'Hola' };
    expect((await t.call('POST', `/api/usuarios/${b.id}/enviar-email-ayuda/`, { token: access, json })).status).toBe(403);
    expect(
      (await t.call('POST', `/api/usuarios/${a.id}/enviar-email-ayuda/`, { token: access, json: { ...json, id_usuario_sender: b.id } }))
        .status,
    ).toBe(403);
    expect((await t.call('POST', `/api/usuarios/${a.id}/enviar-email-ayuda/`, { json })).status).toBe(401);
  });
});

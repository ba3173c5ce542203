/**
 * The admin console's jobs, mail and statistics (issue 16): a capsule transcode that really fails
 * and is retried, a mail a real SMTP server refuses and then accepts, and statistics that follow
 * a sign-in, an upload and a view once their minute of freshness is over (decision 0077).
 */
import { and, eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  areas,
  capsulas,
  correos,
  metodologias,
  niveles,
  oas,
  registroAdmin,
  tiposMaterial,
  trabajos,
  unidades,
} from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createMailer, type Mailer } from '../../src/lib/server/mail/mailer.server.ts';
import { FRESCURA_ESTADISTICAS_MS } from '../../src/lib/server/services/admin-operaciones.server.ts';
import { hoyEnChile } from '../../src/lib/validation/foro.ts';
import { ADMIN_KEY, createTestApi, type TestApi } from '../support/api.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { freePort } from '../support/server.ts';
import { video } from '../support/video.ts';

let t: TestApi;
let admin: { id: number; email: string; token: string };
let docente: { id: number; token: string };
let recording: Mailer['send'];

beforeAll(async () => {
  t = await createTestApi();
  recording = t.mailer.send;
  admin = await t.session({ admin: true, nombre: 'Rosa' });
  docente = await t.session({ nombre: 'Iván' });
});
afterEach(() => {
  t.mailer.send = recording;
});
afterAll(() => t.close());

const get = async (path: string, token = admin.token) => {
  const res = await t.call('GET', path, { token });
  expect(res.status).toBe(200);
  return res.json();
};

describe('access', () => {
  const llamadas = [
    ['GET', '/api/admin/trabajos/'],
    ['POST', '/api/admin/trabajos/1/reintentar/'],
    ['GET', '/api/admin/correos/'],
    ['POST', '/api/admin/correos/1/reintentar/'],
    ['GET', '/api/admin/estadisticas/'],
  ] as const;

  it("answers a teacher 403 'No tienes permisos' and no token 401 on every call", async () => {
    for (const [method, path] of llamadas) {
      const prohibido = await t.call(method, path, { token: docente.token });
      expect(prohibido.status, path).toBe(403);
      expect((await prohibido.json()).detail).toBe('No tienes permisos');
      expect((await t.call(method, path)).status, path).toBe(401);
      expect((await t.call(method, path, { headers: { 'x-admin-key': 'otra-clave' } })).status, path).toBe(403);
    }
  });

  it('answers malformed ids and filters with 400, never 500', async () => {
    const clave = { headers: { 'x-admin-key': ADMIN_KEY } };
    for (const id of ['0', '-1', '1.5', '0x10', '99999999999999999999', '%00']) {
      for (const recurso of ['trabajos', 'correos']) {
        expect((await t.call('POST', `/api/admin/${recurso}/${id}/reintentar/`, clave)).status, `${recurso} ${id}`).toBe(400);
      }
    }
    for (const q of ['estado=pendiente&estado=fallido', 'estado=%00', 'pagina=-3', 'pagina=abc&estado=enviado']) {
      const res = await t.call('GET', `/api/admin/correos/?${q}`, clave);
      expect(res.status === 200 || res.status === 400, q).toBe(true);
    }
  });

  it('accepts the local admin key', async () => {
    const res = await t.call('GET', '/api/admin/trabajos/', { headers: { 'x-admin-key': ADMIN_KEY } });
    expect(res.status).toBe(200);
  });
});

describe('background jobs', () => {
  it('shows a failed transcode with its reason; a retry queues it and its capsule again, and the runner finishes both', async () => {
    const [ma] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
    const [metodologia] = await t.db.select().from(metodologias).limit(1);
    const mp4 = await video();
    const subida = await t.call('POST', '/api/capsulas/', {
      token: admin.token,
      body: formData(
        {
          titulo: 'Fracciones en la recta',
          descripcion: 'Una clase',
          id_area: String(ma?.id),
          id_metodologia: String(metodologia?.id),
          id_nivel: '04',
        },
        { data: mp4, name: 'clase.mp4', type: 'video/mp4' },
      ),
    });
    expect(subida.status).toBe(201);
    const { id: idCapsula } = await subida.json();
    const [job] = await t.db
      .select()
      .from(trabajos)
      .where(sql`${trabajos.datos}->>'id' = ${String(idCapsula)}`);
    if (!job) throw new Error('no transcode job');

    let lista = await get('/api/admin/trabajos/');
    expect(lista.en_cola).toContainEqual(
      expect.objectContaining({ id: job.id, estado: 'pendiente', descripcion: 'Procesar video de la cápsula «Fracciones en la recta»' }),
    );

    // The original is damaged after the upload was accepted: every attempt fails.
    const original = `capsulas/${idCapsula}/original.mp4`;
    const bueno = Buffer.concat(await (await t.storage.read(original)).toArray());
    await t.storage.write(original, Buffer.from('dañado'));
    for (let i = 0; i < job.max_intentos; i++) {
      await t.db
        .update(trabajos)
        .set({ ejecutar_desde: new Date(0) })
        .where(eq(trabajos.id, job.id));
      await t.jobs.drain();
    }
    lista = await get('/api/admin/trabajos/');
    const fallido = lista.fallidos.find((x: { id: number }) => x.id === job.id);
    expect(fallido).toMatchObject({ estado: 'fallido', intentos: job.max_intentos, tipo: 'capsula-hls' });
    expect(fallido.ultimo_error).toMatch(/\S/);
    expect(lista.en_cola.some((x: { id: number }) => x.id === job.id)).toBe(false);
    expect((await t.db.select().from(capsulas).where(eq(capsulas.id, idCapsula)))[0]?.estado).toBe('error');

    // The author replaces the file; the admin retries.
    await t.storage.write(original, bueno);
    const res = await t.call('POST', `/api/admin/trabajos/${job.id}/reintentar/`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: job.id, estado: 'pendiente', intentos: 0 });
    expect((await t.db.select().from(capsulas).where(eq(capsulas.id, idCapsula)))[0]).toMatchObject({
      estado: 'procesando',
      mensaje_error: null,
    });
    const [registro] = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.accion, 'reintentar_trabajo'), eq(registroAdmin.id_registro, job.id)));
    expect(registro).toMatchObject({
      id_admin: admin.id,
      admin_email: admin.email,
      tipo: 'trabajo',
      detalle: `Reintentó el trabajo n.º ${job.id}: Procesar video de la cápsula «Fracciones en la recta»`,
    });
    expect((await get('/api/admin/trabajos/')).en_cola.map((x: { id: number }) => x.id)).toContain(job.id);

    // Due now: the runner takes it at once.
    expect(await t.jobs.drain()).toBe(1);
    expect((await t.db.select().from(capsulas).where(eq(capsulas.id, idCapsula)))[0]?.estado).toBe('listo');
    lista = await get('/api/admin/trabajos/');
    expect(lista.hechos_hoy).toContainEqual(expect.objectContaining({ id: job.id, estado: 'hecho', intentos: 1, ultimo_error: null }));
    expect(lista.fallidos.some((x: { id: number }) => x.id === job.id)).toBe(false);
    const actualizado = lista.hechos_hoy.find((x: { id: number }) => x.id === job.id)?.actualizado;
    expect(Date.now() - new Date(actualizado).getTime()).toBeLessThan(60_000);
  });

  it('refuses to retry a job that has not failed (409), an unknown one (404) and a bad id (400)', async () => {
    const id = await t.jobs.enqueue('eco-admin', {});
    const pendiente = await t.call('POST', `/api/admin/trabajos/${id}/reintentar/`, { token: admin.token });
    expect(pendiente.status).toBe(409);
    expect((await pendiente.json()).detail).toBe('Solo se puede reintentar un trabajo fallido');
    expect((await t.call('POST', '/api/admin/trabajos/999999/reintentar/', { token: admin.token })).status).toBe(404);
    expect((await t.call('POST', '/api/admin/trabajos/abc/reintentar/', { token: admin.token })).status).toBe(400);
    await t.db.delete(trabajos).where(eq(trabajos.id, id));
  });
});

/** A real SMTP server that refuses every recipient with 550 until told to accept. */
async function smtpQueRechaza() {
  const port = await freePort();
  const estado = { acepta: false, recibidos: [] as string[] };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (estado.acepta) return callback();
      callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        estado.recibidos.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: 'Entre Docentes <no-responder@example.cl>',
    outboxDir: '',
    log: createLogger('silent'),
  });
  return { estado, mailer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const invitar = (email: string) =>
  t.call('POST', '/api/admin/usuarios/', { headers: { 'x-admin-key': ADMIN_KEY }, json: { email, nombres: 'Rosa', apellidos: 'Vera' } });

describe('the mail outbox', () => {
  it('lists mails by state without bodies or links; a refused mail is retried and then sent', async () => {
    const smtp = await smtpQueRechaza();
    try {
      t.mailer.send = (m) => smtp.mailer.send(m);
      expect((await invitar('rechazada@example.cl')).status).toBe(201);
      const [fila] = await t.db.select().from(correos).where(eq(correos.para, 'rechazada@example.cl'));
      expect(fila).toMatchObject({ estado: 'fallido', intentos: 1 });

      const fallidos = await get('/api/admin/correos/?estado=fallido');
      expect(fallidos.totales.fallido).toBeGreaterThanOrEqual(1);
      expect(fallidos.num_results).toBe(fallidos.totales.fallido);
      const correo = fallidos.correos.find((c: { id: number }) => c.id === fila?.id);
      expect(correo).toMatchObject({ para: 'rechazada@example.cl', estado: 'fallido', intentos: 1, fecha_envio: null });
      expect(correo.ultimo_error).toMatch(/550/);
      expect(fallidos.correos.every((c: { estado: string }) => c.estado === 'fallido')).toBe(true);

      // Never the body or the link (it holds the activation token).
      const todos = await get('/api/admin/correos/');
      expect(todos.num_results).toBe(todos.totales.pendiente + todos.totales.enviado + todos.totales.fallido);
      for (const c of todos.correos) {
        expect(Object.keys(c).sort()).toEqual([
          'asunto',
          'estado',
          'fecha_creacion',
          'fecha_envio',
          'id',
          'intentos',
          'para',
          'ultimo_error',
        ]);
      }
      const texto = JSON.stringify(todos);
      expect(texto).not.toContain('activar-cuenta');
      expect(texto).not.toContain(t.tokenFrom(fila?.enlace ?? 'x/sin-enlace'));

      smtp.estado.acepta = true;
      const res = await t.call('POST', `/api/admin/correos/${fila?.id}/reintentar/`, { token: admin.token });
      expect(res.status).toBe(200);
      const reintentado = await res.json();
      expect(reintentado).toMatchObject({ id: fila?.id, estado: 'pendiente', intentos: 0 });
      expect(Object.keys(reintentado)).not.toContain('texto');
      // The call helper sends due mail after each request, as the runner would.
      const [enviado] = await t.db
        .select()
        .from(correos)
        .where(eq(correos.id, fila?.id ?? 0));
      expect(enviado).toMatchObject({ estado: 'enviado', intentos: 1, ultimo_error: null });
      expect(smtp.estado.recibidos).toEqual(['rechazada@example.cl']);
      const [registro] = await t.db
        .select()
        .from(registroAdmin)
        .where(and(eq(registroAdmin.accion, 'reintentar_correo'), eq(registroAdmin.id_registro, fila?.id ?? 0)));
      expect(registro?.detalle).toBe(`Reintentó el envío del correo n.º ${fila?.id} a rechazada@example.cl`);

      const otraVez = await t.call('POST', `/api/admin/correos/${fila?.id}/reintentar/`, { token: admin.token });
      expect(otraVez.status).toBe(409);
      expect((await otraVez.json()).detail).toBe('Solo se puede reintentar un correo fallido');
    } finally {
      await smtp.close();
    }
  });

  it('will not resend a mail a newer one replaced (its link no longer works), nor an unknown one', async () => {
    t.mailer.send = () => Promise.reject(new Error('down'));
    const creada = await invitar('reemplazada@example.cl');
    const { usuario } = await creada.json();
    await t.call('POST', `/api/admin/usuarios/${usuario.id}/reenviar-activacion/`, { token: admin.token });
    const [viejo] = await t.db.select().from(correos).where(eq(correos.para, 'reemplazada@example.cl')).orderBy(correos.id);
    expect(viejo?.estado).toBe('fallido');
    const res = await t.call('POST', `/api/admin/correos/${viejo?.id}/reintentar/`, { token: admin.token });
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toBe('Este correo fue reemplazado por uno más reciente; no se puede reintentar');
    expect((await t.call('POST', '/api/admin/correos/999999/reintentar/', { token: admin.token })).status).toBe(404);
  });

  it('pages the list and refuses an unknown state with a Spanish message', async () => {
    const res = await t.call('GET', '/api/admin/correos/?estado=perdido', { token: admin.token });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe('Estado no válido: use pendiente, enviado o fallido');
    const lejos = await get('/api/admin/correos/?pagina=500&estado=');
    expect(lejos.correos).toEqual([]);
    expect(lejos.num_pages).toBe(1);
  });
});

describe('statistics', () => {
  it('has 12 zero-filled Mondays and months, oldest first, and every area × level cell', async () => {
    const e = await get('/api/admin/estadisticas/');
    expect(e.activos_por_semana).toHaveLength(12);
    const lunes = e.activos_por_semana.map((s: { semana: string }) => new Date(`${s.semana}T00:00:00Z`));
    for (const [i, d] of lunes.entries()) {
      expect(d.getUTCDay()).toBe(1);
      if (i > 0) expect(d.getTime() - lunes[i - 1].getTime()).toBe(7 * 86_400_000);
    }
    const hoy = hoyEnChile();
    expect(hoy >= e.activos_por_semana[11].semana).toBe(true);
    expect(new Date(`${hoy}T00:00:00Z`).getTime() - lunes[11].getTime()).toBeLessThan(7 * 86_400_000);
    expect(e.subidas_por_mes).toHaveLength(12);
    expect(e.subidas_por_mes[11].mes).toBe(hoy.slice(0, 7));
    expect(new Set(e.subidas_por_mes.map((m: { mes: string }) => m.mes)).size).toBe(12);
    expect(e.visitas_por_seccion.map((v: { seccion: string }) => v.seccion)).toEqual(['capsulas', 'biblioteca', 'manuales', 'foro']);
    const { areas: a, niveles: n, celdas } = e.materiales_por_area_nivel;
    expect(n[0]).toBe('Primer Nivel de Transición');
    expect(celdas).toHaveLength(a.length * n.length);
  });

  it('are read again at once when the day changes in Chile, within the minute', async () => {
    const estadisticas = () => t.api.services.adminOperaciones.estadisticas();
    const real = t.clock.now;
    try {
      // Midnight between November and December in Chile, whatever its offset that day (in whole minutes).
      let medianoche = new Date('2026-12-01T02:00:00Z');
      while (hoyEnChile(medianoche) === '2026-11-30') medianoche = new Date(medianoche.getTime() + 60_000);
      t.clock.now = new Date(medianoche.getTime() - 10_000);
      const antes = await estadisticas();
      expect(antes.subidas_por_mes[11]?.mes).toBe('2026-11');
      t.clock.now = new Date(medianoche.getTime() + 10_000);
      const despues = await estadisticas();
      expect(despues.subidas_por_mes[11]?.mes).toBe('2026-12');
      // The same day within the minute: the same answer.
      t.clock.now = new Date(medianoche.getTime() + 20_000);
      expect(await estadisticas()).toBe(despues);
    } finally {
      t.clock.now = real;
    }
  });

  it('follows a sign-in, an upload and a view once its minute of freshness is over', async () => {
    const [ma] = await t.db.select().from(areas).where(eq(areas.codigo, 'MA'));
    const [unidad] = await t.db
      .select()
      .from(unidades)
      .where(and(eq(unidades.id_area, ma?.id ?? 0), eq(unidades.codigo_nivel, '07')));
    const [oa] = await t.db
      .select()
      .from(oas)
      .where(eq(oas.unidad, unidad?.id ?? 0));
    const [guia] = await t.db.select().from(tiposMaterial).where(eq(tiposMaterial.nombre, 'Guía'));
    const [septimo] = await t.db.select().from(niveles).where(eq(niveles.codigo, '07'));
    // The figures may be FRESCURA_ESTADISTICAS_MS old (decision 0077): past that, they are read again.
    const frescas = async () => {
      t.clock.now = new Date(t.clock.now.getTime() + FRESCURA_ESTADISTICAS_MS);
      return get('/api/admin/estadisticas/');
    };
    const antes = await frescas();
    const celda = (e: typeof antes) =>
      e.materiales_por_area_nivel.celdas.find((c: { area: string; nivel: string }) => c.area === ma?.nombre && c.nivel === septimo?.nombre)
        ?.total;

    const lector = await t.session({ nombre: 'Luz' });
    const subida = await t.call('POST', '/api/bdocente/', {
      token: docente.token,
      body: formData(
        {
          id_area: String(ma?.id),
          id_nivel: '07',
          id_unidad: String(unidad?.id),
          oas: [String(oa?.id)],
          titulo: 'Guía de enteros',
          descripcion: 'Ejercicios',
          tipo_material_docente: String(guia?.id),
        },
        { data: pdf(1), name: 'guia.pdf' },
      ),
    });
    expect(subida.status).toBe(201);
    const material = await subida.json();
    expect((await t.call('GET', `/api/bdocente/${material.id}/`, { token: lector.token })).status).toBe(200);

    // Within the minute the admin sees the figures as they were read: the same answer.
    expect(await get('/api/admin/estadisticas/')).toEqual(antes);
    const despues = await frescas();
    expect(despues.activos_por_semana[11].docentes).toBe(antes.activos_por_semana[11].docentes + 1);
    expect(despues.subidas_por_mes[11].materiales).toBe(antes.subidas_por_mes[11].materiales + 1);
    const visitas = (e: typeof antes) => e.visitas_por_seccion.find((v: { seccion: string }) => v.seccion === 'biblioteca').visitas;
    expect(visitas(despues)).toBe(visitas(antes) + 1);
    expect(despues.mas_vistos).toContainEqual({
      tipo: 'material',
      id: material.id,
      titulo: 'Guía de enteros',
      visitas: 1,
      href: `/biblioteca-docente/${material.id}`,
    });
    expect(celda(despues)).toBe(celda(antes) + 1);
  });
});

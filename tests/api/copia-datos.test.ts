/**
 * 'Mis datos' (issue 31): what is held about a person by category, and the copy of it: one ZIP
 * built by the 'copia-datos' job with every category as JSON, a readable index.html and the files
 * as stored (a material's PDF and a capsule's original byte for byte), told by a notification and a
 * mail through a real SMTP server, downloadable by its owner alone for 7 days (each download in the
 * audit log), then removed from storage. Also run with TEST_STORAGE=s3 (.ci/run).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  capsulas,
  colegios,
  comentarios,
  consentimientos,
  copiasDatos,
  correos,
  denuncias,
  especialidades,
  foroComentarios,
  foroReaccionesConversacion,
  likesMateriales,
  materiales,
  mensajesAyuda,
  mensajesContacto,
  notificaciones,
  oas,
  perfilAreas,
  perfilColegios,
  perfilEspecialidades,
  perfilesDocentes,
  registroAdmin,
  solicitudesDatos,
  tiposMaterial,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';
import { createMailer, type Mailer } from '../../src/lib/server/mail/mailer.server.ts';
import { COPIA_EN_CURSO, DEMASIADAS_COPIAS, TRABAJO_COPIAS_VENCIDAS } from '../../src/lib/server/services/mis-datos.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCategoria, insertarConversacion, type Sesion, subirCapsula, unidadDe } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';
import { freePort } from '../support/server.ts';
import { smtp } from '../support/smtp.ts';
import { leerZip } from '../support/zip.ts';

let t: TestApi;
let recording: Mailer['send'];
let servidor: ReturnType<typeof smtp>;
let smtpMailer: Mailer;

beforeAll(async () => {
  t = await createTestApi();
  recording = t.mailer.send;
  const port = await freePort();
  servidor = smtp(port);
  await servidor.start();
  smtpMailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: 'Entre Docentes <no-responder@example.cl>',
    outboxDir: '',
    log: createLogger('silent'),
  });
});
afterEach(() => {
  t.mailer.send = recording;
});
afterAll(async () => {
  await servidor.stop();
  await t.close();
});

const misDatos = (s: Sesion, id = s.id) => t.call('GET', `/api/usuarios/${id}/mis-datos/`, { token: s.token });
const pedir = (s: Sesion, id = s.id) => t.call('POST', `/api/usuarios/${id}/copia-datos/`, { token: s.token });
const copias = (s: Sesion, id = s.id) => t.call('GET', `/api/usuarios/${id}/copia-datos/`, { token: s.token });
const descargar = (s: Sesion, url: string) => t.call('GET', url, { token: s.token });

interface Categoria {
  clave: string;
  cantidad: number;
  detalle: string[];
}
const categoria = async (s: Sesion, clave: string): Promise<Categoria> => {
  const res = await misDatos(s);
  expect(res.status).toBe(200);
  const c = ((await res.json()).categorias as Categoria[]).find((x) => x.clave === clave);
  if (!c) throw new Error(`no category ${clave}`);
  return c;
};

/** Asks for a copy, runs the job, and downloads the ready ZIP: its entries and the copy as listed. */
async function copiaLista(s: Sesion) {
  const pedida = await pedir(s);
  expect(pedida.status, await pedida.clone().text()).toBe(202);
  expect((await pedida.json()).estado).toBe('pendiente');
  await t.jobs.drain();
  const [copia] = (await (await copias(s)).json()).copias;
  expect(copia.estado).toBe('lista');
  expect(copia.url).toBe(`/api/usuarios/${s.id}/copia-datos/${copia.id}/descargar/`);
  const res = await descargar(s, copia.url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="mis-datos-\d{4}-\d{2}-\d{2}\.zip"/);
  const zip = Buffer.from(await res.arrayBuffer());
  expect(zip.length).toBe(copia.bytes);
  return { copia, entradas: await leerZip(zip) };
}

const json = (entradas: Map<string, Buffer>, ruta: string) => {
  const e = entradas.get(ruta);
  if (!e) throw new Error(`no ${ruta} in the copy`);
  return JSON.parse(e.toString('utf8'));
};

describe('what is held (GET /api/usuarios/{id}/mis-datos/)', () => {
  it('lists every category with its count and readable lines, to the person and to an admin', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    await t.db.update(usuarios).set({ rut: '12345678-5', telefono: '+56911112222' }).where(eq(usuarios.id, ana.id));
    const [colegio] = await t.db.insert(colegios).values({ nombre: 'Liceo Bicentenario de Talca' }).returning();
    await t.db.insert(perfilColegios).values({ id_usuario: ana.id, id_colegio: colegio?.id ?? 0 });
    const res = await misDatos(ana);
    expect(res.status).toBe(200);
    const cuerpo = await res.json();
    const claves = cuerpo.categorias.map((c: Categoria) => c.clave);
    for (const clave of ['perfil', 'colegios', 'especialidades', 'areas', 'niveles', 'consentimientos', 'sesiones', 'ingresos']) {
      expect(claves).toContain(clave);
    }
    for (const clave of ['capsulas', 'materiales', 'manuales', 'subtitulos', 'comentarios', 'me_gusta', 'conversaciones_foro']) {
      expect(claves).toContain(clave);
    }
    for (const clave of [
      'comentarios_foro',
      'reacciones_foro',
      'denuncias',
      'notificaciones',
      'mensajes_contacto',
      'mensajes_ayuda',
      'copias',
      'guardados',
      'colecciones',
      'seguimientos',
    ]) {
      expect(claves).toContain(clave);
    }
    const perfil = cuerpo.categorias.find((c: Categoria) => c.clave === 'perfil');
    expect(perfil.detalle).toContain('RUT: 12345678-5');
    expect(perfil.detalle).toContain(`Correo: ${ana.email}`);
    expect(perfil.detalle).toContain('Teléfono: +56911112222');
    expect(await categoria(ana, 'colegios')).toMatchObject({ cantidad: 1, detalle: ['Liceo Bicentenario de Talca'] });
    // The session signs in from 203.0.113.7 (the harness's address): one sign-in, one session.
    expect((await categoria(ana, 'ingresos')).cantidad).toBe(1);
    expect((await categoria(ana, 'sesiones')).cantidad).toBe(1);

    const admin = await t.session({ admin: true });
    expect((await misDatos(admin, ana.id)).status).toBe(200);
    expect((await misDatos(admin, 999_999)).status).toBe(404);
  });

  it('is refused to another teacher (403), and to nobody signed in (401)', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    const luis = await t.session({ nombre: 'Luis' });
    expect((await misDatos(luis, ana.id)).status).toBe(403);
    expect((await t.call('GET', `/api/usuarios/${ana.id}/mis-datos/`)).status).toBe(401);
  });
});

describe('the copy (POST and GET /api/usuarios/{id}/copia-datos/)', () => {
  it('holds every category as JSON, a readable index and the files byte for byte; notifies and mails the person', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    const luis = await t.session({ nombre: 'Luis' });
    await t.db.update(usuarios).set({ rut: '12345678-5', telefono: '+56911112222' }).where(eq(usuarios.id, ana.id));
    await t.db.insert(consentimientos).values({ id_usuario: ana.id, version: '2026-11', ip: '203.0.113.7' });
    // A material uploaded through the API: its PDF must come back unchanged.
    const u = await unidadDe(t, 'MA', '07');
    const archivoPdf = pdf(3, 5000);
    const [tipo] = await t.db.select().from(tiposMaterial);
    const [oa] = await t.db.select().from(oas).where(eq(oas.unidad, u.id));
    const campos = {
      id_area: String(u.id_area),
      id_nivel: '07',
      id_unidad: String(u.id),
      titulo: 'Guía de fracciones',
      descripcion: 'Ejercicios',
    };
    const subida = await t.call('POST', '/api/bdocente/', {
      token: ana.token,
      body: formData({ ...campos, oas: [String(oa?.id)], tipo_material_docente: String(tipo?.id) }, { data: archivoPdf, name: 'guia.pdf' }),
    });
    expect(subida.status, await subida.clone().text()).toBe(201);
    const material = (await subida.json()).id as number;
    const [guardado] = await t.db.select().from(materiales).where(eq(materiales.id, material));
    // What she wrote and did elsewhere.
    await t.db.insert(comentarios).values({ id_usuario: ana.id, id_material: material, contenido: 'Muy útil para 7° básico' });
    await t.db.insert(likesMateriales).values({ id_recurso: material, id_usuario: luis.id });
    await t.db.insert(likesMateriales).values({ id_recurso: material, id_usuario: ana.id });
    const conversacion = await insertarConversacion(t, await insertarCategoria(t, { nombre: 'Evaluación' }), ana, 'Rúbricas compartidas');
    await t.db.insert(foroComentarios).values({ id_conversacion: conversacion, id_usuario: ana.id, contenido: 'Dejo mi rúbrica' });
    await t.db.insert(foroReaccionesConversacion).values({ id_conversacion: conversacion, id_usuario: ana.id, id_like: 2 });
    await t.db
      .insert(denuncias)
      .values({ tipo: 'material', id_recurso: material, id_usuario: ana.id, motivo: 'spam', detalle: 'Repetido' });
    await t.db
      .insert(mensajesContacto)
      .values({ id_usuario_sender: ana.id, id_usuario_receiver: luis.id, asunto: 'Tu guía', mensaje: 'Hola Luis' });
    await t.db.insert(mensajesAyuda).values({ id_usuario_sender: ana.id, asunto: 'No veo mi video', mensaje: 'Ayuda por favor' });
    // Her profile's schools, specialties and areas, and a notification for her.
    await t.db.insert(perfilesDocentes).values({ id_usuario: ana.id }).onConflictDoNothing();
    const [colegio] = await t.db.insert(colegios).values({ nombre: 'Escuela Rural Los Aromos' }).returning();
    const [especialidad] = await t.db.insert(especialidades).values({ nombre: 'Educación matemática' }).returning();
    await t.db.insert(perfilColegios).values({ id_usuario: ana.id, id_colegio: colegio?.id ?? 0 });
    await t.db.insert(perfilEspecialidades).values({ id_usuario: ana.id, id_especialidad: especialidad?.id ?? 0 });
    await t.db.insert(perfilAreas).values({ id_usuario: ana.id, id_area: u.id_area });
    await t.db.insert(notificaciones).values({
      id_usuario: ana.id,
      id_actor: luis.id,
      tipo: 'me_gusta',
      recurso_tipo: 'material',
      id_recurso: material,
      titulo: 'Guía de fracciones',
      enlace: `/biblioteca-docente/${material}`,
    });
    // What she saved and collected (issue 35), through the API.
    const guardar = await t.call('POST', '/api/guardados/', { token: ana.token, json: { tipo: 'conversacion', id: conversacion } });
    expect(guardar.status).toBe(201);
    const nueva = await t.call('POST', '/api/colecciones/', {
      token: ana.token,
      json: { nombre: 'Unidad 2 - Fracciones', descripcion: 'Para 7° básico', compartida: true },
    });
    const coleccion = (await nueva.json()).id as number;
    const agregado = await t.call('POST', `/api/colecciones/${coleccion}/items/`, {
      token: ana.token,
      json: { tipo: 'material', id: material, nota: 'Imprimir para la clase' },
    });
    expect(agregado.status).toBe(201);
    // And whom she follows.
    expect((await t.call('POST', '/api/seguimientos/', { token: ana.token, json: { tipo: 'usuario', usuario: luis.id } })).status).toBe(
      201,
    );

    t.mailer.send = smtpMailer.send;
    const { copia, entradas } = await copiaLista(ana);

    // The readable index: Spanish, no scripts, relative links to what is inside.
    const indice = entradas.get('index.html')?.toString('utf8') ?? '';
    expect(indice).toContain('<html lang="es">');
    expect(indice).not.toMatch(/<script/i);
    expect(indice).toContain(`href="archivos/${guardado?.archivo}"`);
    for (const [, ruta] of indice.matchAll(/href="([^"#]+)"/g)) expect(entradas.has(decodeURIComponent(ruta ?? ''))).toBe(true);
    expect(indice).toContain('Guía de fracciones');

    // The machine-readable JSON of every category.
    const perfil = json(entradas, 'datos/perfil.json');
    expect(perfil).toMatchObject({ email: ana.email, rut: '12345678-5', telefono: '+56911112222', primer_nombre: 'Ana' });
    expect(perfil).not.toHaveProperty('password_hash');
    expect(json(entradas, 'datos/consentimientos.json')).toMatchObject([{ version: '2026-11', ip: '203.0.113.7' }]);
    expect(json(entradas, 'datos/sesiones.json')).toMatchObject([
      { ip: '203.0.113.7', iniciada: expect.any(String), expira: expect.any(String) },
    ]);
    expect(json(entradas, 'datos/colegios.json')).toMatchObject([{ nombre: 'Escuela Rural Los Aromos' }]);
    expect(json(entradas, 'datos/especialidades.json')).toMatchObject([{ nombre: 'Educación matemática' }]);
    expect(json(entradas, 'datos/areas.json')).toMatchObject([{ id: u.id_area }]);
    expect(json(entradas, 'datos/notificaciones.json')).toMatchObject([
      { tipo: 'me_gusta', recurso_tipo: 'material', id_recurso: material },
    ]);
    expect(json(entradas, 'datos/ingresos.json')).toHaveLength(1);
    expect(json(entradas, 'datos/materiales.json')).toMatchObject([
      { id: material, titulo: 'Guía de fracciones', archivo: guardado?.archivo },
    ]);
    expect(json(entradas, 'datos/comentarios.json')).toMatchObject([{ contenido: 'Muy útil para 7° básico', id_material: material }]);
    expect(json(entradas, 'datos/conversaciones_foro.json')).toMatchObject([{ id: conversacion, titulo: 'Rúbricas compartidas' }]);
    expect(json(entradas, 'datos/comentarios_foro.json')).toMatchObject([{ contenido: 'Dejo mi rúbrica' }]);
    expect(json(entradas, 'datos/reacciones_foro.json')).toMatchObject([{ tipo: 'conversacion', id_recurso: conversacion, reaccion: 2 }]);
    expect(json(entradas, 'datos/denuncias.json')).toMatchObject([{ tipo: 'material', motivo: 'spam', detalle: 'Repetido' }]);
    expect(json(entradas, 'datos/mensajes_contacto.json')).toMatchObject([
      { asunto: 'Tu guía', mensaje: 'Hola Luis', id_destinatario: luis.id },
    ]);
    expect(json(entradas, 'datos/mensajes_ayuda.json')).toMatchObject([{ asunto: 'No veo mi video' }]);
    expect(json(entradas, 'datos/copias.json')).toMatchObject([{ id: copia.id, estado: 'pendiente' }]);
    expect(json(entradas, 'datos/indice.json').archivos).toMatchObject([
      { ruta: `archivos/${guardado?.archivo}`, bytes: archivoPdf.length },
    ]);
    expect(json(entradas, 'datos/guardados.json')).toMatchObject([
      { tipo: 'conversacion', id_item: conversacion, titulo: 'Rúbricas compartidas' },
    ]);
    expect(json(entradas, 'datos/colecciones.json')).toMatchObject([
      {
        id: coleccion,
        nombre: 'Unidad 2 - Fracciones',
        descripcion: 'Para 7° básico',
        compartida: true,
        items: [{ tipo: 'material', id_item: material, titulo: 'Guía de fracciones', nota: 'Imprimir para la clase' }],
      },
    ]);
    expect(indice).toContain('Tus colecciones');
    expect(json(entradas, 'datos/seguimientos.json')).toMatchObject([{ tipo: 'usuario', sigues: expect.stringContaining('Luis') }]);
    expect(indice).toContain('Lo que sigues');
    // Her like, and not Luis's on the same material.
    expect(json(entradas, 'datos/me_gusta.json')).toEqual([expect.objectContaining({ tipo: 'material', id_recurso: material })]);

    // The uploaded file, byte for byte.
    expect(entradas.get(`archivos/${guardado?.archivo}`)?.equals(archivoPdf)).toBe(true);

    // Registered as a completed request of the person.
    expect(await t.db.select().from(solicitudesDatos).where(eq(solicitudesDatos.id_usuario, ana.id))).toMatchObject([
      { tipo: 'copia', origen: 'persona', estado: 'completada' },
    ]);
    // The notification, and the mail through the real SMTP server.
    const avisos = (await (await t.call('GET', '/api/notificaciones/', { token: ana.token })).json()).notificaciones;
    expect(avisos).toContainEqual(
      expect.objectContaining({
        tipo: 'copia_lista',
        enlace: '/perfil/mis-datos',
        texto: 'La copia de tus datos está lista para descargar en Mis datos.',
      }),
    );
    await t.jobs.drainMail();
    const correo = servidor.recibidos.find((r) => r.to.includes(ana.email));
    const [enviado] = await t.db.select().from(correos).where(eq(correos.para, ana.email));
    expect(enviado).toMatchObject({ estado: 'enviado', asunto: 'Tu copia de datos de Entre Docentes está lista' });
    expect(correo?.raw).toMatch(new RegExp(`^Message-ID: <${enviado?.message_id}@example.cl>`, 'mi'));
    expect(correo?.raw.replace(/=\r?\n/g, '')).toContain('http://localhost:4321/perfil/mis-datos');
    // The download, in the audit log.
    expect(await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, 'descargar_copia_datos'))).toContainEqual(
      expect.objectContaining({ id_admin: ana.id, tipo: 'copia_datos', id_registro: copia.id }),
    );
  });

  it('carries a capsule’s original video byte for byte', async () => {
    const admin = await t.session({ admin: true });
    const id = await subirCapsula(t, admin.token);
    const [capsula] = await t.db.select().from(capsulas).where(eq(capsulas.id, id));
    const original = await new Response((await t.storage.read(capsula?.archivo ?? '')) as unknown as ReadableStream).arrayBuffer();
    const { entradas } = await copiaLista(admin);
    expect(json(entradas, 'datos/capsulas.json')).toMatchObject([{ id, archivo: capsula?.archivo }]);
    expect(entradas.get(`archivos/${capsula?.archivo}`)?.equals(Buffer.from(original))).toBe(true);
  });

  it('refuses a second copy while one is being made, and a fourth in 24 hours', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    expect((await pedir(ana)).status).toBe(202);
    const otra = await pedir(ana);
    expect(otra.status).toBe(409);
    expect((await otra.json()).detail).toBe(COPIA_EN_CURSO);
    await t.jobs.drain();
    for (let i = 0; i < 2; i++) {
      expect((await pedir(ana)).status).toBe(202);
      await t.jobs.drain();
    }
    const cuarta = await pedir(ana);
    expect(cuarta.status).toBe(429);
    expect((await cuarta.json()).detail).toBe(DEMASIADAS_COPIAS);
    const ahora = t.clock.now;
    t.clock.now = new Date(ahora.getTime() + 25 * 60 * 60 * 1000);
    try {
      // A new sign-in: the access token of a day ago has expired.
      const manana = { ...ana, token: (await t.login(ana.email)).access };
      expect((await pedir(manana)).status).toBe(202);
      await t.jobs.drain();
    } finally {
      t.clock.now = ahora;
    }
  });

  it('is another teacher’s to neither ask for, list nor download (403, 404)', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    const luis = await t.session({ nombre: 'Luis' });
    const admin = await t.session({ admin: true });
    const { copia } = await copiaLista(ana);
    expect((await pedir(luis, ana.id)).status).toBe(403);
    expect((await copias(luis, ana.id)).status).toBe(403);
    expect((await descargar(luis, copia.url)).status).toBe(403);
    // Luis's own path with Ana's copy: not his, so not there.
    expect((await descargar(luis, `/api/usuarios/${luis.id}/copia-datos/${copia.id}/descargar/`)).status).toBe(404);
    // Nor an admin's: the copy is the person's alone.
    expect((await pedir(admin, ana.id)).status).toBe(403);
    expect((await descargar(admin, copia.url)).status).toBe(403);
    expect((await t.call('GET', copia.url)).status).toBe(401);
  });

  it('stops downloading after 7 days; the clean-up marks it expired and removes its file from storage', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    const { copia } = await copiaLista(ana);
    const [fila] = await t.db.select().from(copiasDatos).where(eq(copiasDatos.id, copia.id));
    expect(await t.storage.size(fila?.clave ?? '')).toBe(copia.bytes);
    expect(new Date(copia.expira).getTime() - new Date(copia.lista_en).getTime()).toBe(7 * 24 * 60 * 60 * 1000);

    // Seven days later (the row moved back, as the clock would).
    const semana = 7 * 24 * 60 * 60 * 1000 + 1000;
    await t.db
      .update(copiasDatos)
      .set({ lista_en: new Date(Date.parse(copia.lista_en) - semana), expira: new Date(Date.parse(copia.expira) - semana) })
      .where(eq(copiasDatos.id, copia.id));
    expect((await descargar(ana, copia.url)).status).toBe(404);
    await t.jobs.enqueue(TRABAJO_COPIAS_VENCIDAS, {});
    await t.jobs.drain();
    expect(await t.storage.size(fila?.clave ?? '')).toBeNull();
    const [despues] = (await (await copias(ana)).json()).copias;
    expect(despues).toMatchObject({ id: copia.id, estado: 'expirada', url: null });
    expect(
      await t.db
        .select()
        .from(copiasDatos)
        .where(and(eq(copiasDatos.id, copia.id), eq(copiasDatos.clave, ''))),
    ).toHaveLength(1);
  });
});

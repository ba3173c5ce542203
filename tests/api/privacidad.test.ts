/**
 * The privacy notice and the personal data rights of issue 31 this part builds (decision 0057):
 * - the notice's facts are public; its responsible party is an admin's setting, validated, logged;
 * - activation requires accepting the notice and records the acceptance with its address;
 * - a new version asks once (the page user carries the accepted version; accepting records it);
 * - opposition (`oculto_directorio`): out of the directory, its search and the contact form;
 * - minimisation: no answer another teacher can fetch carries a teacher's RUT, phone, birth date
 *   or email;
 * - sign-in addresses are recorded, copied across rotations, and blanked after the retention.
 */
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consentimientos,
  foroComentarios,
  ingresos,
  limitesIntentos,
  materiales,
  registroAdmin,
  tokensRefresh,
  trabajos,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { debeAceptarPrivacidad, TRABAJO_RETENCION_DIRECCIONES } from '../../src/lib/server/services/privacidad.server.ts';
import { PRIVACIDAD_VERSION } from '../../src/lib/validation/privacidad.ts';
import { createTestApi, PASSWORD, type TestApi } from '../support/api.ts';
import { insertarCapsula, insertarCategoria, insertarConversacion, insertarManual, insertarMaterial } from '../support/contenido.ts';
import { contractOperations } from '../support/openapi.ts';

let t: TestApi;
let admin: { id: number; email: string; token: string };

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Rosa' });
});
afterAll(() => t.close());

const RESPONSABLE = { nombre: 'Red de Docentes de Ñuble', direccion: 'Av. Libertad 123, Chillán', correo: 'datos@example.cl' };

describe('the privacy notice', () => {
  it('is public: its version, the retention and, once an admin sets it, who is responsible', async () => {
    const antes = await t.call('GET', '/api/privacidad/');
    expect(antes.status).toBe(200);
    expect(await antes.json()).toEqual({ version: PRIVACIDAD_VERSION, responsable: null, retencion_direcciones_dias: 90 });

    const puesto = await t.call('PUT', '/api/admin/privacidad/', { token: admin.token, json: RESPONSABLE });
    expect(puesto.status).toBe(200);
    expect((await (await t.call('GET', '/api/privacidad/')).json()).responsable).toEqual(RESPONSABLE);
    const [log] = await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, 'editar_responsable_datos'));
    expect(log).toMatchObject({
      id_admin: admin.id,
      tipo: 'ajuste',
      detalle: 'Responsable de los datos: Red de Docentes de Ñuble (datos@example.cl)',
    });
  });

  it('takes the responsible party only from an admin, and only when valid', async () => {
    const docente = await t.session();
    expect((await t.call('PUT', '/api/admin/privacidad/', { token: docente.token, json: RESPONSABLE })).status).toBe(403);
    expect((await t.call('PUT', '/api/admin/privacidad/', { json: RESPONSABLE })).status).toBe(401);
    const malo = await t.call('PUT', '/api/admin/privacidad/', {
      token: admin.token,
      json: { nombre: ' ', direccion: '', correo: 'no-es-correo' },
    });
    expect(malo.status).toBe(400);
    expect((await malo.json()).errors).toEqual({
      nombre: ['Debe ingresar el nombre del responsable'],
      direccion: ['Debe ingresar una dirección'],
      correo: ['Debe ingresar un correo válido'],
    });
    expect((await (await t.call('GET', '/api/privacidad/')).json()).responsable).toEqual(RESPONSABLE);
  });
});

describe('accepting the notice', () => {
  async function invitar(email: string): Promise<string> {
    const res = await t.call('POST', '/api/admin/usuarios/', { token: admin.token, json: { email, nombres: 'Lucía', apellidos: 'Rojas' } });
    expect(res.status).toBe(201);
    return t.tokenFrom(t.lastLinkTo(email));
  }

  it('is required to activate an account, and recorded with its version, time and address', async () => {
    const email = 'lucia.privacidad@example.cl';
    const token = await invitar(email);
    const clave = { token, password: 'Nueva#Clave9', password_confirmation: 'Nueva#Clave9' };

    for (const acepta of [undefined, false]) {
      const sin = await t.call('POST', '/api/usuarios/activar-cuenta/', { json: { ...clave, acepta_privacidad: acepta } });
      expect(sin.status).toBe(400);
      expect((await sin.json()).errors).toEqual({ acepta_privacidad: ['Debes aceptar el aviso de privacidad para activar tu cuenta'] });
    }
    expect(await t.findUser(email)).toMatchObject({ activo: false, privacidad_version: null });

    const ok = await t.call('POST', '/api/usuarios/activar-cuenta/', {
      json: { ...clave, acepta_privacidad: true },
      clientAddress: '198.51.100.4',
    });
    expect(ok.status).toBe(200);
    const cuenta = await t.findUser(email);
    expect(cuenta).toMatchObject({ activo: true, privacidad_version: PRIVACIDAD_VERSION, privacidad_aceptada_en: t.clock.now });
    const filas = await t.db
      .select()
      .from(consentimientos)
      .where(eq(consentimientos.id_usuario, cuenta?.id ?? 0));
    expect(filas).toMatchObject([{ version: PRIVACIDAD_VERSION, ip: '198.51.100.4', fecha: t.clock.now }]);
    expect(debeAceptarPrivacidad(cuenta ?? {})).toBe(false);
  });

  it('asks once when the version changes, and an account from before the notice too; the API keeps answering meanwhile', async () => {
    const vieja = await t.session({ nombre: 'Marta' });
    const anterior = await t.session({ nombre: 'Olga' });
    await t.db.update(usuarios).set({ privacidad_version: '2025-01-01' }).where(eq(usuarios.id, anterior.id));

    for (const persona of [vieja, anterior]) {
      // What the pages' middleware reads: the person as a page sees them.
      const pagina = await t.api.usuarioActual.obtener({ sub: persona.id, groups: [], sid: 'x' });
      expect(debeAceptarPrivacidad(pagina ?? {})).toBe(true);
      // The API is not held back: a person on the acceptance page can still load what the page needs.
      expect((await t.call('GET', `/api/usuarios/${persona.id}/preferencias/`, { token: persona.token })).status).toBe(200);

      const aceptada = await t.call('POST', '/api/privacidad/aceptar/', { token: persona.token });
      expect(aceptada.status).toBe(200);
      expect(await aceptada.json()).toEqual({ version: PRIVACIDAD_VERSION, aceptada_en: t.clock.now.toISOString() });
      const despues = await t.api.usuarioActual.obtener({ sub: persona.id, groups: [], sid: 'x' });
      expect(debeAceptarPrivacidad(despues ?? {})).toBe(false);
      expect(await t.db.select().from(consentimientos).where(eq(consentimientos.id_usuario, persona.id))).toHaveLength(1);
    }
    expect((await t.call('POST', '/api/privacidad/aceptar/')).status).toBe(401);
  });
});

describe('opposition: out of the directory, its search and contact', () => {
  it('hides a teacher who asks, and brings them back when they change their mind', async () => {
    const ana = await t.session({ nombre: 'Ana' });
    const ximena = await t.session({ nombre: 'Ximena' });
    const buscar = async (q?: string) => {
      const consulta = q ? `?profesor=${encodeURIComponent(q)}&tamano_pagina=100` : '?tamano_pagina=100';
      const res = await t.call('GET', `/api/usuarios/profesores/${consulta}`, { token: ana.token });
      expect(res.status).toBe(200);
      return ((await res.json()) as { profesor: { usuario: { id: number } }[] }).profesor.map((p) => p.usuario.id);
    };
    const escribir = () =>
      t.call('POST', `/api/usuarios/${ana.id}/enviar-email/`, {
        token: ana.token,
        json: { id_usuario_sender: ana.id, id_usuario_receiver: ximena.id, asunto: 'Hola', mensaje: '¿Compartimos la guía?' },
      });
    expect(await buscar()).toContain(ximena.id);
    expect(await buscar('Ximena')).toEqual([ximena.id]);

    const puesta = await t.call('PUT', `/api/usuarios/${ximena.id}/preferencias/`, {
      token: ximena.token,
      json: { oculto_directorio: true },
    });
    expect(await puesta.json()).toEqual({ preferencia_correo: 'diario', ahorro_datos: false, oculto_directorio: true });
    expect(await buscar()).not.toContain(ximena.id);
    expect(await buscar('Ximena')).toEqual([]);
    const mails = t.mails.length;
    const refusado = await escribir();
    expect(refusado.status).toBe(403);
    expect((await refusado.json()).detail).toBe('Esta persona eligió no recibir mensajes a través de la plataforma.');
    expect(t.mails.length).toBe(mails);
    // The contact page's heading says so instead of showing the form.
    expect(await t.api.services.comunidad.destinatario(ximena.id, { id: ana.id, groups: [] })).toMatchObject({ recibe_mensajes: false });

    expect(
      (await t.call('PUT', `/api/usuarios/${ximena.id}/preferencias/`, { token: ximena.token, json: { oculto_directorio: false } })).status,
    ).toBe(200);
    expect(await buscar('Ximena')).toEqual([ximena.id]);
    expect((await escribir()).status).toBe(200);
  });

  it('is the owner’s choice only, and takes only a boolean', async () => {
    const ana = await t.session();
    const otra = await t.session();
    expect(
      (await t.call('PUT', `/api/usuarios/${otra.id}/preferencias/`, { token: ana.token, json: { oculto_directorio: true } })).status,
    ).toBe(403);
    const malo = await t.call('PUT', `/api/usuarios/${ana.id}/preferencias/`, { token: ana.token, json: { oculto_directorio: 'sí' } });
    expect(malo.status).toBe(400);
    expect((await malo.json()).errors).toEqual({ oculto_directorio: ['Indique sí o no'] });
  });
});

describe('minimisation: another teacher never sees RUT, phone, birth date or email', () => {
  const SECRETOS = { email: 'beatriz.secreta@example.cl', rut: '15975346-5', telefono: '+56987650123', fecha_nacimiento: '1983-07-21' };

  it('in no GET answer teacher A can fetch, nor on the pages’ home feed', async () => {
    const a = await t.session({ nombre: 'Andrea' });
    const b = await t.session({ nombre: 'Beatriz', email: SECRETOS.email });
    await t.db
      .update(usuarios)
      .set({
        rut: SECRETOS.rut,
        telefono: SECRETOS.telefono,
        fecha_nacimiento: SECRETOS.fecha_nacimiento,
        nacionalidad: 'Chilena',
        genero: 'Femenino',
      })
      .where(eq(usuarios.id, b.id));

    // B's own content, and B's traces on A's content (comments, replies, likes: notifications for A).
    const capsulaB = await insertarCapsula(t, b, 'Fracciones con B');
    const capsulaA = await insertarCapsula(t, a, 'Geometría con A');
    const materialB = await insertarMaterial(t, b, 'Guía de B');
    const manual = await insertarManual(t, admin, 'Manual de lectura');
    const categoria = await insertarCategoria(t, { nombre: 'Convivencia' });
    const conversacionB = await insertarConversacion(t, categoria, b, 'Conversación de B');
    const conversacionA = await insertarConversacion(t, categoria, a, 'Conversación de A');
    const como = (json: unknown, ruta: string) => t.call('POST', ruta, { token: b.token, json });
    for (const id_capsula of [capsulaA, capsulaB]) {
      expect((await como({ id_usuario: b.id, contenido: 'Comentario de B', id_capsula }, '/api/capsulas/comentarios/')).status).toBe(201);
    }
    expect(
      (
        await como(
          { id_usuario: b.id, contenido: 'Sobre la guía', id_recurso: materialB, tipo_recurso: 'id_material_docente' },
          '/api/bdocente/comentarios/',
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await como(
          { id_usuario: b.id, contenido: 'Sobre el manual', id_recurso: manual, tipo_recurso: 'id_manual' },
          '/api/manuales/comentarios/',
        )
      ).status,
    ).toBe(201);
    for (const id_conversacion of [conversacionA, conversacionB]) {
      const res = await como({ id_conversacion, id_categoria: categoria, contenido: 'Respuesta de B' }, '/api/foro/conversacion/comentar/');
      expect(res.status).toBe(201);
    }
    expect((await como({ id_conversacion: conversacionA, id_like: 1, action: 'like' }, '/api/foro/conversacion/like/')).status).toBe(200);
    const [comentarioForo] = await t.db.select().from(foroComentarios).where(eq(foroComentarios.id_usuario, b.id));
    // B's material is public (/explorar/); B shares a collection, which A saves items from and copies.
    await t.db.update(materiales).set({ visibilidad: 'publico', licencia: 'CC-BY-4.0' }).where(eq(materiales.id, materialB));
    const creada = await como({ nombre: 'Selección de B', compartida: true }, '/api/colecciones/');
    expect(creada.status).toBe(201);
    const coleccionB = (await creada.json()).id as number;
    for (const [tipo, id] of [
      ['material', materialB],
      ['capsula', capsulaB],
      ['conversacion', conversacionB],
    ] as const) {
      expect((await como({ tipo, id }, `/api/colecciones/${coleccionB}/items/`)).status).toBe(201);
      expect((await t.call('POST', '/api/guardados/', { token: a.token, json: { tipo, id } })).status).toBe(201);
    }
    expect((await t.call('POST', `/api/colecciones/${coleccionB}/copiar/`, { token: a.token })).status).toBe(201);

    // Every GET of the contract A may call, its ids filled with B's and the content's.
    const ids: Record<string, number> = {
      capsulas: capsulaB,
      bdocente: materialB,
      manuales: manual,
      usuarios: b.id,
      categorias: categoria,
      conversacion: conversacionB,
      colecciones: coleccionB,
    };
    const rutas = [
      '/api/privacidad/',
      '/api/notificaciones/',
      '/api/capsulas/',
      '/api/capsulas/?search=Fracciones',
      `/api/capsulas/${capsulaA}/`,
      `/api/capsulas/${capsulaB}/`,
      `/api/capsulas/comentarios/${capsulaA}/`,
      `/api/capsulas/comentarios/${capsulaB}/`,
      `/api/capsulas/${capsulaB}/subtitulos/`,
      '/api/bdocente/',
      '/api/bdocente/?search=Gu%C3%ADa',
      `/api/bdocente/${materialB}/`,
      `/api/bdocente/comentarios/${materialB}/`,
      '/api/manuales/',
      `/api/manuales/${manual}/`,
      `/api/manuales/comentarios/${manual}/`,
      '/api/usuarios/profesores/',
      '/api/usuarios/profesores/?profesor=Beatriz',
      `/api/usuarios/${b.id}/`,
      `/api/usuarios/${b.id}/contenidos-subidos/`,
      '/api/foro/categorias/',
      `/api/foro/categorias/${categoria}/`,
      `/api/foro/categorias/${categoria}/conversaciones/`,
      `/api/foro/conversacion/${conversacionA}/`,
      `/api/foro/conversacion/${conversacionB}/`,
      `/api/foro/conversacion/${conversacionA}/respuestas/`,
      `/api/foro/conversacion/${conversacionB}/respuestas/`,
      '/api/foro/conversacion/likes_usuario/',
      '/api/foro/comentario/likes_usuario/',
      '/api/guardados/',
      '/api/guardados/?tipo=material',
      '/api/colecciones/',
      `/api/colecciones/${coleccionB}/`,
      // B's own account pages' answers: refused to A, and without B's fields either way.
      `/api/usuarios/${b.id}/sesiones/`,
      `/api/usuarios/${b.id}/totp/`,
      `/api/usuarios/${b.id}/identidades/`,
    ];
    const contrato = contractOperations()
      .filter(([metodo]) => metodo === 'GET')
      .map(([, ruta]) => ruta);
    // Each GET of the contract a teacher may call, with {id} filled from its section; the rest
    // (admin, tokens, the person's own data, files and media) are someone else's or not JSON.
    for (const ruta of contrato) {
      if (/^\/(api\/admin|healthz|streaming|miniaturas)|token|mis-datos|copia-datos|preferencias|descargar|leer\/|procesando/.test(ruta))
        continue;
      const seccion = /^\/api\/(?:foro\/)?([a-z_]+)/.exec(ruta)?.[1] ?? '';
      const lleno = ruta.replace(/\{id\}/g, String(ids[seccion] ?? ids.usuarios));
      if (!/\{/.test(lleno)) rutas.push(lleno);
    }
    const leidas: string[] = [];
    for (const ruta of new Set(rutas)) {
      const res = await t.call('GET', ruta, { token: a.token });
      expect(res.status, ruta).toBeLessThan(500);
      if (res.status === 200) leidas.push(ruta);
      expect(sinSecretos(await res.text()), ruta).toEqual([]);
    }
    // The walk reached B's profile, the directory, every comment list and the forum.
    expect(leidas).toEqual(
      expect.arrayContaining([`/api/usuarios/${b.id}/`, '/api/usuarios/profesores/', `/api/foro/conversacion/${conversacionA}/`]),
    );
    expect(leidas.length).toBeGreaterThanOrEqual(25);
    // A's notifications name B (the comments and the like), without B's private fields.
    expect((await (await t.call('GET', '/api/notificaciones/', { token: a.token })).json()).notificaciones.length).toBeGreaterThan(0);
    expect(comentarioForo).toBeDefined();

    expect(leidas).toEqual(expect.arrayContaining(['/api/guardados/', `/api/colecciones/${coleccionB}/`]));

    // What pages render from the services: the home feed, the contact page's heading, B's profile
    // and its shared collections, and the public pages (/explorar/ and an item's) a visitor reads.
    const actor = { id: a.id, groups: [] };
    const { services } = t.api;
    const paginas = {
      inicio: await services.inicio.abrir(actor),
      contacto: await services.comunidad.destinatario(b.id, actor),
      perfil: await services.perfiles.obtener(actor, b.id),
      colecciones: await services.colecciones.compartidasDe(b.id),
      explorar: await services.publicos.explorar({ pagina: 1 }),
      publico: await services.publicos.material(materialB),
    };
    expect(paginas.explorar.materiales.map((m: { id: number }) => m.id)).toContain(materialB);
    expect(paginas.colecciones.map((c: { id: number }) => c.id)).toContain(coleccionB);
    for (const [pagina, datos] of Object.entries(paginas)) expect(sinSecretos(JSON.stringify(datos)), pagina).toEqual([]);
    // A visitor without a session: the public routes answer without them too.
    for (const ruta of ['/api/privacidad/', `/api/bdocente/${materialB}/descargar/`]) {
      const res = await t.call('GET', ruta);
      expect(res.status, ruta).toBeLessThan(500);
      expect(sinSecretos(await res.text()), ruta).toEqual([]);
    }
    // B sees their own fields; so does an admin.
    for (const token of [b.token, admin.token]) {
      expect(await (await t.call('GET', `/api/usuarios/${b.id}/`, { token })).json()).toMatchObject({
        email: SECRETOS.email,
        rut: SECRETOS.rut,
        telefono: SECRETOS.telefono,
        fecha_nacimiento: SECRETOS.fecha_nacimiento,
      });
    }
  });

  /** The secrets an answer carries, in any of the forms they are written. */
  function sinSecretos(texto: string): string[] {
    const digitos = texto.replace(/[.\s-]/g, '');
    return [
      texto.includes(SECRETOS.email) ? 'email' : '',
      digitos.includes('159753465') ? 'rut' : '',
      digitos.includes('987650123') ? 'telefono' : '',
      texto.includes(SECRETOS.fecha_nacimiento) ? 'fecha_nacimiento' : '',
    ].filter(Boolean);
  }
});

describe('sign-in addresses', () => {
  it('are recorded with the browser at sign-in and carried along a session’s rotations', async () => {
    const user = await t.createUser();
    const res = await t.call('POST', '/auth/login/', {
      json: { email: user.email, password: PASSWORD },
      headers: { 'user-agent': 'Mozilla/5.0 (Prueba) Chrome/130', 'x-forwarded-for': '192.0.2.9, 10.0.0.2' },
      clientAddress: '10.0.0.3',
      trustProxy: 1,
    });
    expect(res.status).toBe(200);
    const { refresh } = await res.json();
    // With one trusted proxy the client is the last address the proxy added.
    expect(await t.db.select({ ip: ingresos.ip, agente: ingresos.agente }).from(ingresos).where(eq(ingresos.id_usuario, user.id))).toEqual([
      { ip: '10.0.0.2', agente: 'Mozilla/5.0 (Prueba) Chrome/130' },
    ]);
    const renovada = await t.call('POST', '/auth/renovar_token/', { json: { refresh } });
    expect(renovada.status).toBe(200);
    const sesiones = await t.db
      .select({ ip: tokensRefresh.ip, agente: tokensRefresh.agente })
      .from(tokensRefresh)
      .where(eq(tokensRefresh.id_usuario, user.id));
    expect(sesiones).toEqual([
      { ip: '10.0.0.2', agente: 'Mozilla/5.0 (Prueba) Chrome/130' },
      { ip: '10.0.0.2', agente: 'Mozilla/5.0 (Prueba) Chrome/130' },
    ]);
  });

  it('are blanked by the daily retention job once older than RETENCION_DIRECCIONES_DIAS, and recent ones kept', async () => {
    const user = await t.createUser();
    const dia = 24 * 60 * 60 * 1000;
    const viejo = new Date(t.clock.now.getTime() - 91 * dia);
    const reciente = new Date(t.clock.now.getTime() - 89 * dia);
    const origen = { ip: '203.0.113.50', agente: 'Firefox/128' };
    await t.db.insert(ingresos).values([
      { id_usuario: user.id, fecha: viejo, ...origen },
      { id_usuario: user.id, fecha: reciente, ...origen },
    ]);
    const familia = (n: string) => ({ id_usuario: user.id, familia: n, token_hash: `hash-${n}`, expira: t.clock.now, ...origen });
    await t.db.insert(tokensRefresh).values([
      { ...familia('vieja'), fecha_creacion: viejo },
      { ...familia('reciente'), fecha_creacion: reciente },
    ]);
    await t.db.insert(consentimientos).values([
      { id_usuario: user.id, version: 'v', ip: origen.ip, fecha: viejo },
      { id_usuario: user.id, version: 'v', ip: origen.ip, fecha: reciente },
    ]);

    // Sign-in counters keyed by the address: an old 'known address' mark goes, a recent one stays.
    const conocida = (n: string) => `login:conocida:${JSON.stringify([`${n}@example.cl`, origen.ip])}`;
    await t.db.insert(limitesIntentos).values([
      { clave: conocida('vieja'), ventana_inicio: viejo, intentos: 1 },
      { clave: conocida('reciente'), ventana_inicio: reciente, intentos: 1 },
    ]);

    await t.db.delete(trabajos).where(eq(trabajos.tipo, TRABAJO_RETENCION_DIRECCIONES));
    await t.api.services.privacidad.programar();
    expect(await t.jobs.drain()).toBeGreaterThanOrEqual(1);

    const de = (filas: { ip: string | null }[]) => filas.map((f) => f.ip);
    expect(de(await t.db.select().from(ingresos).where(eq(ingresos.id_usuario, user.id)).orderBy(ingresos.fecha))).toEqual([
      null,
      origen.ip,
    ]);
    expect(
      (await t.db.select().from(tokensRefresh).where(eq(tokensRefresh.id_usuario, user.id)).orderBy(tokensRefresh.fecha_creacion)).map(
        (f) => [f.ip, f.agente],
      ),
    ).toEqual([
      [null, null],
      [origen.ip, origen.agente],
    ]);
    expect(
      de(await t.db.select().from(consentimientos).where(eq(consentimientos.id_usuario, user.id)).orderBy(consentimientos.fecha)),
    ).toEqual([null, origen.ip]);
    const contadores = await t.db
      .select({ clave: limitesIntentos.clave })
      .from(limitesIntentos)
      .where(like(limitesIntentos.clave, '%203.0.113.50%'));
    expect(contadores).toEqual([{ clave: conocida('reciente') }]);
    // The next run is queued for a day later.
    const [siguiente] = await t.db
      .select({ en: sql<number>`extract(epoch from ${trabajos.ejecutar_desde} - now())` })
      .from(trabajos)
      .where(and(eq(trabajos.tipo, TRABAJO_RETENCION_DIRECCIONES), eq(trabajos.estado, 'pendiente')));
    expect(Number(siguiente?.en)).toBeGreaterThan(23 * 60 * 60);
  });
});

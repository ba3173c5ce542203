/**
 * Leaving the platform (issue 31, decision 0059). A teacher with a full profile, a photo, uploads,
 * comments with another teacher's reply, forum posts, likes, notifications and mail schedules the
 * deletion of their account (a wrong password first), signs in (which cancels), schedules again
 * and, 14 days later, the 'baja-cuenta' job erases it. Then the whole database (every text and
 * JSON column of every table) and the whole storage (disk, or the bucket with TEST_STORAGE=s3)
 * are searched for the person's name, email, RUT, phone and photo key; the other teacher's reply
 * still shows; nothing the other teacher reads names the person; their sessions are over. Both
 * with the contributions kept and deleted. Then the console: a written request with its reason.
 */
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  capsulas,
  codigosRecuperacion,
  colecciones,
  correos,
  guardados,
  identidades,
  likesMateriales,
  materiales,
  mochilas,
  oas,
  perfilColegios,
  registroAdmin,
  segundosFactores,
  solicitudesDatos,
  subidas,
  tokensRefresh,
  unidades,
  usuarios,
} from '../../src/lib/server/db/schema.server.ts';
import { createTestApi, PASSWORD, type TestApi } from '../support/api.ts';
import { insertarCategoria, insertarMaterial, type Sesion, subirCapsula } from '../support/contenido.ts';
import { formData } from '../support/form.ts';
import { pdf } from '../support/pdf.ts';

const DIA = 24 * 60 * 60 * 1000;

/** Every row of every table, every text, varchar, array and JSON column, as text: what a dump holds. */
async function volcado(t: TestApi): Promise<{ tabla: string; texto: string }[]> {
  const filas = (r: unknown) => (r as { rows?: Record<string, unknown>[] }).rows ?? (r as Record<string, unknown>[]);
  const columnas = filas(
    await t.db.execute(sql`
      select table_name as tabla, column_name as columna from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`),
  ) as { tabla: string; columna: string }[];
  const porTabla = new Map<string, string[]>();
  for (const c of columnas) porTabla.set(c.tabla, [...(porTabla.get(c.tabla) ?? []), c.columna]);
  const salida: { tabla: string; texto: string }[] = [];
  for (const [tabla, cols] of porTabla) {
    const lista = cols.map((c) => `coalesce("${c}"::text, '')`).join(` || ' | ' || `);
    for (const f of filas(await t.db.execute(sql.raw(`select ${lista} as texto from "${tabla}"`)))) {
      salida.push({ tabla, texto: String(f.texto) });
    }
  }
  return salida;
}

/** Every file in the storage, with its bytes as text (latin1: any byte sequence survives). */
async function archivos(t: TestApi): Promise<{ key: string; texto: string }[]> {
  const salida: { key: string; texto: string }[] = [];
  for await (const { key } of t.storage.list('')) {
    const partes: Buffer[] = [];
    for await (const parte of await t.storage.read(key)) partes.push(Buffer.from(parte));
    salida.push({ key, texto: Buffer.concat(partes).toString('latin1') + Buffer.concat(partes).toString('utf8') });
  }
  return salida;
}

interface Persona {
  id: number;
  email: string;
  token: string;
  refresh: string;
  rut: string;
  foto: string;
  /** What must appear nowhere after the erasure. */
  huellas: string[];
}

/** A teacher (an admin too, so they may upload a capsule) with every personal field and a photo. */
async function personaCompleta(t: TestApi): Promise<Persona> {
  const sufijo = randomBytes(3).toString('hex');
  const email = `eloisa.bustamante.${sufijo}@example.cl`;
  const u = await t.createUser({ email, nombre: 'Eloísa' });
  const rut = `16.${Math.floor(100 + Math.random() * 800)}.321-K`;
  await t.db
    .update(usuarios)
    .set({
      segundo_nombre: 'Maribel',
      apellido_paterno: 'Bustamante',
      apellido_materno: 'Quiroga',
      rut,
      telefono: '+56987654321',
      fecha_nacimiento: '1985-04-03',
      nacionalidad: 'Chilena',
      genero: 'Femenino',
      groups: ['admin'],
      rol: 'Administrador',
    })
    .where(eq(usuarios.id, u.id));
  const sesion = await t.login(email);
  const imagen = await sharp({ create: { width: 240, height: 240, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.set('foto', new Blob([new Uint8Array(imagen)], { type: 'image/jpeg' }), 'eloisa.jpg');
  const foto = await t.call('POST', `/api/usuarios/${u.id}/foto/`, { token: sesion.access, body: form });
  expect(foto.status).toBe(201);
  const [fila] = await t.db.select().from(usuarios).where(eq(usuarios.id, u.id));
  expect(fila?.foto_perfil).toMatch(/^usuarios\//);
  return {
    id: u.id,
    email,
    token: sesion.access,
    refresh: sesion.refresh,
    rut,
    foto: fila?.foto_perfil ?? '',
    huellas: [email, 'Eloísa', 'Bustamante', 'Quiroga', 'Maribel', rut, '+56987654321', fila?.foto_perfil ?? '', `usuarios/${u.id}/`],
  };
}

/** A PDF material through the library's upload form. */
async function subirMaterial(t: TestApi, token: string): Promise<number> {
  const [unidad] = await t.db.select().from(unidades).limit(1);
  const objetivos = await t.db
    .select()
    .from(oas)
    .where(eq(oas.unidad, unidad?.id ?? 0))
    .limit(1);
  const [tipo] = await t.db
    .execute(sql`select id from tipos_material limit 1`)
    .then((r) => (r as unknown as { rows: { id: number }[] }).rows);
  const campos = {
    id_area: String(unidad?.id_area),
    id_nivel: unidad?.codigo_nivel ?? '',
    id_unidad: String(unidad?.id),
    oas: objetivos.map((o) => String(o.id)),
    titulo: 'Guía de fracciones',
    descripcion: 'Ejercicios para séptimo',
    tipo_material_docente: String(tipo?.id),
  };
  const res = await t.call('POST', '/api/bdocente/', { token, body: formData(campos, { data: pdf(2), name: 'guia.pdf' }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id;
}

interface Escena {
  persona: Persona;
  /** The person's shared collection (a contribution) and private one. */
  compartida: number;
  privada: number;
  otra: Sesion;
  admin: Sesion;
  material: number;
  capsula: number;
  comentarioConRespuesta: number;
  respuestaOtra: number;
  conversacion: number;
  ajenoDeAdmin: number;
  /** A resumable upload the person began and never finished: its bytes wait in the upload store. */
  subida: string;
}

/** Half a PDF sent through tus (POST, one PATCH): an unfinished upload of `token`'s, by its id. */
async function subidaSinTerminar(t: TestApi, token: string): Promise<string> {
  const datos = pdf(2);
  const meta = { filename: 'guia-eloisa.pdf', filetype: 'application/pdf', destino: 'material' };
  const creada = await t.call('POST', '/api/subidas/', {
    token,
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(datos.length),
      'upload-metadata': Object.entries(meta)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(','),
    },
  });
  expect(creada.status, await creada.clone().text()).toBe(201);
  const location = creada.headers.get('location') ?? '';
  const mitad = Math.floor(datos.length / 2);
  const parte = await t.call('PATCH', `${location}/`, {
    token,
    body: new Uint8Array(datos.subarray(0, mitad)),
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
  });
  expect(parte.status).toBe(204);
  return location.split('/').at(-1) ?? '';
}

/** Everything the person does before leaving. */
async function escena(t: TestApi): Promise<Escena> {
  const admin = await t.session({ admin: true, nombre: 'Marta' });
  const otra = await t.session({ nombre: 'Rocío' });
  const persona = await personaCompleta(t);
  const yo = { id: persona.id, email: persona.email, token: persona.token };
  const material = await subirMaterial(t, persona.token);
  const capsula = await subirCapsula(t, persona.token);
  await t.jobs.drain();
  const [c] = await t.db.select().from(capsulas).where(eq(capsulas.id, capsula));
  expect(c?.estado).toBe('listo');
  // As an admin, an audited action: the log names who did it.
  expect(
    (await t.call('PATCH', `/api/admin/usuarios/${otra.id}/`, { token: persona.token, json: { colegio: 'Liceo Rural' } })).status,
  ).toBe(200);

  const ajenoDeAdmin = await insertarMaterial(t, admin, 'Rúbrica de lectura');
  const comentar = async (quien: Sesion, contenido: string, padre: number | null) => {
    const res = await t.call('POST', '/api/bdocente/comentarios/', {
      token: quien.token,
      json: { id_recurso: ajenoDeAdmin, tipo_recurso: 'id_material_docente', contenido, id_respuesta_comentario: padre },
    });
    expect(res.status).toBe(201);
    return (await res.json()).id as number;
  };
  const comentarioConRespuesta = await comentar(yo, 'Muy útil para mi curso', null);
  const respuestaOtra = await comentar(otra, 'Gracias por contarlo', comentarioConRespuesta);
  await comentar(yo, 'Lo usaré el lunes', null);
  // A like on someone else's material, and on the person's own by the other teacher.
  expect(
    (
      await t.call('POST', '/api/bdocente/like/', {
        token: persona.token,
        json: { id_usuario: persona.id, id_material: ajenoDeAdmin, add: true },
      })
    ).status,
  ).toBe(200);
  await t.call('POST', '/api/bdocente/like/', { token: otra.token, json: { id_usuario: otra.id, id_material: material, add: true } });

  const categoria = await insertarCategoria(t, { nombre: `Convivencia ${randomBytes(2).toString('hex')}` });
  const nueva = await t.call('POST', '/api/foro/conversacion/nueva/', {
    token: persona.token,
    json: { id_usuario: persona.id, titulo: 'Recreos tranquilos', contenido: 'Les cuento lo que hicimos', id_categoria: categoria },
  });
  expect(nueva.status).toBe(201);
  const conversacion = (await nueva.json()).id as number;
  const respuestaForo = await t.call('POST', '/api/foro/conversacion/comentar/', {
    token: otra.token,
    json: { id_conversacion: conversacion, id_categoria: categoria, contenido: 'Nosotros también', comentario_padre: null },
  });
  expect(respuestaForo.status).toBe(201);
  await t.call('POST', '/api/foro/conversacion/like/', {
    token: persona.token,
    json: { id_conversacion: conversacion, id_like: 1, action: 'like' },
  });
  // Help: a message that went out with the person's address to answer to; and a mail still waiting.
  await t.call('POST', `/api/usuarios/${persona.id}/enviar-email-ayuda/`, {
    token: persona.token,
    json: { asunto: 'Ayuda', mensaje: 'No puedo subir un video' },
  });
  await t.db.insert(correos).values({
    message_id: `<${randomBytes(6).toString('hex')}@example.cl>`,
    para: persona.email,
    asunto: 'Hola Eloísa',
    texto: 'Hola Eloísa Bustamante',
    html: '<p>Hola</p>',
    proximo_intento: new Date(Date.now() + DIA),
  });
  // Saved items and collections, a shared one and a private one; a second factor and a school account.
  for (const [tipo, id] of [
    ['material', ajenoDeAdmin],
    ['conversacion', conversacion],
  ] as const) {
    expect((await t.call('POST', '/api/guardados/', { token: persona.token, json: { tipo, id } })).status).toBe(201);
  }
  const coleccion = async (nombre: string, compartida: boolean) => {
    const res = await t.call('POST', '/api/colecciones/', { token: persona.token, json: { nombre, compartida } });
    expect(res.status, await res.clone().text()).toBe(201);
    const id = (await res.json()).id as number;
    const item = await t.call('POST', `/api/colecciones/${id}/items/`, {
      token: persona.token,
      json: { tipo: 'material', id: ajenoDeAdmin, nota: 'Para la reunión de ciclo' },
    });
    expect(item.status, await item.clone().text()).toBe(201);
    return id;
  };
  const compartida = await coleccion('Lectura en primer ciclo', true);
  const privada = await coleccion('Para revisar', false);
  // A large mochila of the private collection, built by the job into storage: it carries the person's notes.
  const TAMANO_GRANDE = 1.5 * 1024 * 1024;
  await t.storage.write('bdocente/mochila/original.pdf', randomBytes(TAMANO_GRANDE));
  // With the size an upload records: the mochila's size is read from the rows (decision 0076).
  const grande = await insertarMaterial(t, admin, 'Banco de lecturas', { archivo: 'bdocente/mochila/original.pdf', tamano: TAMANO_GRANDE });
  const enMochila = await t.call('POST', `/api/colecciones/${privada}/items/`, {
    token: persona.token,
    json: { tipo: 'material', id: grande, nota: 'Para la reunión de ciclo' },
  });
  expect(enMochila.status, await enMochila.clone().text()).toBe(201);
  expect((await t.call('GET', `/api/colecciones/${privada}/mochila/`, { token: persona.token })).status).toBe(202);
  await t.jobs.drain();
  expect((await t.call('GET', `/api/colecciones/${privada}/mochila/`, { token: persona.token })).status).toBe(200);
  // Enrolment under way (unconfirmed, so the sign-ins below need no code): the secret is stored all the same.
  await t.db.insert(segundosFactores).values({ id_usuario: persona.id, secreto: 'JBSWY3DPEHPK3PXP' });
  await t.db.insert(codigosRecuperacion).values({ id_usuario: persona.id, codigo_hash: 'hash-de-un-codigo' });
  await t.db.insert(identidades).values({ id_usuario: persona.id, proveedor: 'liceo', sub: 'sub-123', email: persona.email });
  const subida = await subidaSinTerminar(t, persona.token);
  return {
    persona,
    compartida,
    privada,
    otra,
    admin,
    material,
    capsula,
    comentarioConRespuesta,
    respuestaOtra,
    conversacion,
    ajenoDeAdmin,
    subida,
  };
}

async function filaDe(t: TestApi, id: number) {
  const [u] = await t.db.select().from(usuarios).where(eq(usuarios.id, id));
  if (!u) throw new Error('no user');
  return u;
}

/** Nothing in `texto` names the person. */
function sinHuellas(donde: string, texto: string, persona: Persona) {
  for (const h of persona.huellas) expect(texto.includes(h), `${donde} carries «${h}»`).toBe(false);
}

for (const conservar of [false, true]) {
  describe(`leaving the platform, ${conservar ? 'keeping' : 'deleting'} the contributions`, () => {
    let t: TestApi;
    let e: Escena;
    beforeAll(async () => {
      t = await createTestApi();
      e = await escena(t);
    }, 120_000);
    afterAll(() => t.close());

    it('refuses a wrong password and changes nothing; refuses another teacher', async () => {
      const { persona, otra } = e;
      const mal = await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, {
        token: persona.token,
        json: { password: 'otra-clave', conservar_aportes: conservar },
      });
      expect(mal.status).toBe(400);
      expect((await mal.json()).detail).toBe('La contraseña no es correcta. Tu cuenta no se eliminará.');
      // An empty password is only for an account that has none (a school account's).
      const vacia = await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, {
        token: persona.token,
        json: { password: '', conservar_aportes: conservar },
      });
      expect(vacia.status).toBe(400);
      expect((await vacia.json()).errors).toEqual({ password: ['Debe ingresar tu contraseña'] });
      expect((await filaDe(t, persona.id)).baja_programada).toBeNull();
      expect(await t.db.select().from(solicitudesDatos)).toEqual([]);
      const ajena = await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, {
        token: otra.token,
        json: { password: PASSWORD, conservar_aportes: conservar },
      });
      expect(ajena.status).toBe(403);
      expect((await t.call('DELETE', `/api/usuarios/${persona.id}/eliminar-cuenta/`, { token: otra.token })).status).toBe(403);
      expect((await filaDe(t, persona.id)).baja_programada).toBeNull();
    });

    it('schedules in 14 days, ends the other sessions, and a sign-in cancels with a notice', async () => {
      const { persona } = e;
      const otraSesion = await t.login(persona.email);
      const res = await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, {
        token: persona.token,
        json: { password: PASSWORD, conservar_aportes: conservar },
      });
      expect(res.status).toBe(202);
      const body = await res.json();
      expect(body.conservar_aportes).toBe(conservar);
      expect(new Date(body.baja_programada).getTime() - t.clock.now.getTime()).toBe(14 * DIA);
      // The session that asked still works; the other one ended.
      expect((await t.call('GET', `/api/usuarios/${persona.id}/`, { token: persona.token })).status).toBe(200);
      expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: otraSesion.refresh } })).status).toBe(401);
      const [solicitud] = await t.db.select().from(solicitudesDatos);
      expect(solicitud).toMatchObject({ tipo: 'eliminacion', estado: 'pendiente', origen: 'persona', id_usuario: persona.id });

      const ingreso = await t.call('POST', '/auth/login/', { json: { email: persona.email, password: PASSWORD } });
      expect(ingreso.status).toBe(200);
      expect((await ingreso.json()).aviso).toBe(
        'Cancelamos la eliminación de tu cuenta porque volviste a ingresar. Tu cuenta sigue activa.',
      );
      expect((await filaDe(t, persona.id)).baja_programada).toBeNull();
      expect((await t.db.select().from(solicitudesDatos))[0]?.estado).toBe('cancelada');
      // A second sign-in has nothing to say.
      expect(
        (await (await t.call('POST', '/auth/login/', { json: { email: persona.email, password: PASSWORD } })).json()).aviso,
      ).toBeUndefined();
    });

    it('schedules again and cancels with DELETE; the register keeps both', async () => {
      const { persona } = e;
      const cuerpo = { password: PASSWORD, conservar_aportes: conservar };
      expect((await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, { token: persona.token, json: cuerpo })).status).toBe(
        202,
      );
      expect((await t.call('DELETE', `/api/usuarios/${persona.id}/eliminar-cuenta/`, { token: persona.token })).status).toBe(200);
      expect((await t.call('DELETE', `/api/usuarios/${persona.id}/eliminar-cuenta/`, { token: persona.token })).status).toBe(404);
      expect((await t.call('POST', `/api/usuarios/${persona.id}/eliminar-cuenta/`, { token: persona.token, json: cuerpo })).status).toBe(
        202,
      );
      const estados = (await t.db.select().from(solicitudesDatos)).map((s) => s.estado).sort();
      expect(estados).toEqual(['cancelada', 'cancelada', 'pendiente']);
    });

    it('after 14 days the job erases the person: nothing in the database or the storage names them', async () => {
      const { persona } = e;
      // The unfinished upload's bytes are held in the store the uploads use.
      const { almacen } = t.api.services.subidas;
      expect(await almacen.existe(e.subida)).toBe(true);
      expect(await t.db.select().from(subidas).where(eq(subidas.id, e.subida))).toHaveLength(1);
      // The dump and the walk do find the person while the account lives.
      const antes = await volcado(t);
      for (const h of [persona.email, 'Bustamante', persona.rut, persona.foto])
        expect(
          antes.some((f) => f.texto.includes(h)),
          h,
        ).toBe(true);
      expect(new Set(antes.map((f) => f.tabla)).size).toBeGreaterThan(20);
      expect((await archivos(t)).some((f) => f.key === persona.foto)).toBe(true);
      // Not yet on day 13.
      t.clock.now = new Date(t.clock.now.getTime() + 13 * DIA);
      await t.api.services.baja.programar();
      await t.jobs.drain();
      expect((await filaDe(t, persona.id)).eliminada_en).toBeNull();
      t.clock.now = new Date(t.clock.now.getTime() + 2 * DIA);
      await t.db.execute(sql`update trabajos set ejecutar_desde = now() where tipo = 'baja-cuenta' and estado = 'pendiente'`);
      await t.jobs.drain();
      const u = await filaDe(t, persona.id);
      expect(u).toMatchObject({
        primer_nombre: 'Docente retirado/a',
        apellido_paterno: '',
        rut: '',
        telefono: '',
        fecha_nacimiento: null,
        foto_perfil: '',
        password_hash: null,
        activo: false,
        groups: [],
      });
      expect(u.eliminada_en).not.toBeNull();
      expect(u.email).toBe(`cuenta-${persona.id}@eliminada.invalid`);

      for (const fila of await volcado(t)) sinHuellas(`table ${fila.tabla}`, fila.texto, persona);
      const enStorage = await archivos(t);
      for (const f of enStorage) sinHuellas(`file ${f.key}`, `${f.key}\n${f.texto}`, persona);
      // The unfinished upload goes at once, row and bytes, not an hour later with the sweep of orphans.
      expect(await t.db.select().from(subidas).where(eq(subidas.id, e.subida))).toEqual([]);
      expect(await almacen.existe(e.subida)).toBe(false);
      expect(await almacen.ids()).not.toContain(e.subida);
      const material = await t.db.select().from(materiales).where(eq(materiales.id, e.material));
      const capsula = await t.db.select().from(capsulas).where(eq(capsulas.id, e.capsula));
      expect(material.length).toBe(conservar ? 1 : 0);
      expect(capsula.length).toBe(conservar ? 1 : 0);
      expect(enStorage.some((f) => f.key.startsWith(`materiales/${e.material}/`))).toBe(conservar);
      expect(enStorage.some((f) => f.key.startsWith(`capsulas/${e.capsula}/`))).toBe(conservar);
      expect(enStorage.filter((f) => f.key.startsWith('mochilas/'))).toEqual([]);
      expect(await t.db.select().from(likesMateriales).where(eq(likesMateriales.id_usuario, persona.id))).toEqual([]);
      expect(await t.db.select().from(tokensRefresh).where(eq(tokensRefresh.id_usuario, persona.id))).toEqual([]);
      // The second factor, the school account and the saved items go; a shared collection stays only when kept.
      for (const tabla of [segundosFactores, codigosRecuperacion, identidades, guardados, mochilas]) {
        expect(await t.db.select().from(tabla).where(eq(tabla.id_usuario, persona.id))).toEqual([]);
      }
      const quedan = await t.db.select({ id: colecciones.id }).from(colecciones).where(eq(colecciones.id_usuario, persona.id));
      expect(quedan.map((c) => c.id)).toEqual(conservar ? [e.compartida] : []);
      const [solicitud] = await t.db.select().from(solicitudesDatos).where(eq(solicitudesDatos.estado, 'completada'));
      expect(solicitud?.titular).toBe(`Cuenta n.º ${persona.id}`);
    });

    it("the other teacher's reply still shows; nothing they read names the person", async () => {
      const { persona } = e;
      const otra = { ...e.otra, token: (await t.login(e.otra.email)).access };
      const leer = async (path: string, estado = 200) => {
        const res = await t.call('GET', path, { token: otra.token });
        expect(res.status, path).toBe(estado);
        const texto = await res.text();
        sinHuellas(path, texto, persona);
        return estado === 200 ? JSON.parse(texto) : null;
      };
      const hilo = await leer(`/api/bdocente/comentarios/${e.ajenoDeAdmin}/`);
      const base = hilo.comentarios_base.find((c: { id: number }) => c.id === e.comentarioConRespuesta);
      expect(base, 'the comment with a reply stays').toBeDefined();
      if (conservar) expect(base.contenido).toBe('Muy útil para mi curso');
      else expect(base).toMatchObject({ contenido: '', eliminado: true });
      expect(hilo.comentarios_hijos.map((c: { id: number }) => c.id)).toContain(e.respuestaOtra);
      // The comment without replies: kept, or gone.
      expect(hilo.comentarios_base.length).toBe(conservar ? 2 : 1);
      const conversacion = await leer(`/api/foro/conversacion/${e.conversacion}/`);
      if (!conservar) expect(conversacion.titulo).toBe('Conversación eliminada');
      await leer(`/api/foro/conversacion/${e.conversacion}/respuestas/`);
      const directorio = await leer('/api/usuarios/profesores/?tamano_pagina=100');
      expect(directorio.profesor.map((p: { usuario: { id: number } }) => p.usuario.id)).not.toContain(persona.id);
      expect((await leer('/api/usuarios/profesores/?profesor=Bustamante')).profesor).toEqual([]);
      await leer(`/api/usuarios/${persona.id}/`, 404);
      await leer('/api/bdocente/?q=fracciones');
      await leer('/api/capsulas/');
      await leer('/api/notificaciones/');
      await leer(`/miniaturas/usuarios/${persona.id}`, 404);
      await leer(`/api/colecciones/${e.privada}/`, 404);
      const compartida = await leer(`/api/colecciones/${e.compartida}/`, conservar ? 200 : 404);
      if (conservar) expect(JSON.stringify(compartida)).toContain('Docente retirado/a');
    });

    it("the person's sessions and password no longer work", async () => {
      const { persona } = e;
      expect((await t.call('POST', '/auth/renovar_token/', { json: { refresh: persona.refresh } })).status).toBe(401);
      expect((await t.call('POST', '/auth/login/', { json: { email: persona.email, password: PASSWORD } })).status).toBe(401);
    });
  });
}

describe('the console: written requests and the register', () => {
  let t: TestApi;
  let admin: Sesion;
  beforeAll(async () => {
    t = await createTestApi();
    admin = await t.session({ admin: true, nombre: 'Marta' });
  });
  afterAll(() => t.close());

  const pedir = (quien: Sesion, id: number, json: unknown) =>
    t.call('POST', `/api/admin/usuarios/${id}/eliminar/`, { token: quien.token, json });

  it('asks for the reason, refuses teachers and the admin themself', async () => {
    const docente = await t.session({ nombre: 'Julia' });
    const sinMotivo = await pedir(admin, docente.id, { motivo: '  ', conservar_aportes: true });
    expect(sinMotivo.status).toBe(400);
    expect(JSON.stringify(await sinMotivo.json())).toContain('Escribe el motivo');
    expect((await pedir(docente, docente.id, { motivo: 'x' })).status).toBe(403);
    const propia = await pedir(admin, admin.id, { motivo: 'Carta', inmediato: true });
    expect(propia.status).toBe(409);
    expect((await propia.json()).detail).toMatch(/^No puedes eliminar tu propia cuenta/);
    expect((await filaDe(t, docente.id)).baja_programada).toBeNull();
  });

  it('schedules from a written request, cancels, and erases at once: sessions end everywhere at once', async () => {
    const docente = await t.session({ nombre: 'Clemente', email: 'clemente.zuniga@example.cl' });
    await t.db.update(usuarios).set({ apellido_paterno: 'Zúñiga', rut: '9.876.543-2' }).where(eq(usuarios.id, docente.id));
    await t.db
      .insert(perfilColegios)
      .values({ id_usuario: docente.id, id_colegio: 1 })
      .onConflictDoNothing()
      .catch(() => undefined);
    const programada = await pedir(admin, docente.id, { motivo: 'Carta de Clemente Zúñiga del 3 de marzo', conservar_aportes: false });
    expect(programada.status).toBe(202);
    expect(await programada.json()).toMatchObject({ eliminada: false });
    const consola = await (await t.call('GET', '/api/admin/solicitudes/', { token: admin.token })).json();
    expect(consola.eliminaciones.map((x: { id_usuario: number }) => x.id_usuario)).toEqual([docente.id]);
    expect((await t.call('DELETE', `/api/admin/usuarios/${docente.id}/eliminar/`, { token: admin.token })).status).toBe(200);
    expect((await filaDe(t, docente.id)).baja_programada).toBeNull();

    expect((await t.call('GET', `/api/usuarios/${docente.id}/`, { token: docente.token })).status).toBe(200);
    const ahora = await pedir(admin, docente.id, {
      motivo: 'Carta de Clemente Zúñiga del 3 de marzo',
      conservar_aportes: false,
      inmediato: true,
    });
    expect(ahora.status).toBe(202);
    expect(await ahora.json()).toMatchObject({ eliminada: true, baja_programada: null });
    // The access token, still within its 15 minutes, is refused at once.
    expect((await t.call('GET', `/api/usuarios/${docente.id}/`, { token: docente.token })).status).toBe(401);

    const acciones = await t.call('GET', '/api/admin/registro/?q=eliminaci', { token: admin.token });
    sinHuellas('the audit log', await acciones.text(), {
      huellas: ['Clemente', 'Zúñiga', 'clemente.zuniga@example.cl', '9.876.543-2'],
    } as Persona);

    const csv = await t.call('GET', '/api/admin/solicitudes/exportar/?formato=csv', { token: admin.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const texto = await csv.text();
    expect(texto).toContain(`Cuenta n.º ${docente.id}`);
    expect(texto).toContain('Eliminación de cuenta');
    expect(texto).toContain('Completada');
    expect(texto).toContain('Cancelada');
    sinHuellas('the CSV', texto, { huellas: ['Clemente', 'Zúñiga', 'clemente.zuniga@example.cl'] } as Persona);
    const json = await (await t.call('GET', '/api/admin/solicitudes/exportar/?formato=json', { token: admin.token })).json();
    expect(json.length).toBe(2);
    // A written request of access, answered from the console: in the register and the audit log.
    const otra = await t.session({ nombre: 'Violeta' });
    await t.api.services.baja.registrarAcceso({ id: admin.id }, otra.id, 'Carta de acceso del 2 de marzo');
    const conAcceso = await (await t.call('GET', '/api/admin/solicitudes/exportar/?formato=json', { token: admin.token })).json();
    expect(conAcceso).toContainEqual(
      expect.objectContaining({ tipo: 'acceso', origen: 'admin', estado: 'completada', motivo: 'Carta de acceso del 2 de marzo' }),
    );
    const [visto] = await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, 'ver_datos_cuenta'));
    expect(visto).toMatchObject({ id_admin: admin.id, id_registro: otra.id });
    expect((await t.call('GET', '/api/admin/solicitudes/exportar/?formato=pdf', { token: admin.token })).status).toBe(400);
    expect((await t.call('GET', '/api/admin/solicitudes/exportar/', { token: (await t.session()).token })).status).toBe(403);
  });
});

describe('the network keeps an admin', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi();
  });
  afterAll(() => t.close());

  const programar = (quien: Sesion) =>
    t.call('POST', `/api/usuarios/${quien.id}/eliminar-cuenta/`, {
      token: quien.token,
      json: { password: PASSWORD, conservar_aportes: true },
    });

  it("refuses the deletion of the last admin's account until another admin is named, then schedules it", async () => {
    await t.db.update(usuarios).set({ groups: [] }).where(sql`'admin' = any(${usuarios.groups})`);
    const unica = await t.session({ admin: true, nombre: 'Rosa' });
    const sola = await programar(unica);
    expect(sola.status).toBe(409);
    expect((await sola.json()).detail).toMatch(/^Eres la única persona que administra la red/);
    expect((await filaDe(t, unica.id)).baja_programada).toBeNull();
    // An admin already on their way out does not count as the one who stays.
    const saliente = await t.session({ admin: true, nombre: 'Tomás' });
    expect((await programar(saliente)).status).toBe(202);
    expect((await programar(unica)).status).toBe(409);
    await t.session({ admin: true, nombre: 'Inés' });
    expect((await programar(unica)).status).toBe(202);
  });
});

describe("the page's state", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi();
  });
  afterAll(() => t.close());

  it('comes from one read of the account: the scheduled date and whether the account has a password', async () => {
    const docente = await t.session({ nombre: 'Sofía' });
    const { baja } = t.api.services;
    const lecturas = vi.spyOn(t.db, 'select');
    try {
      expect(await baja.estado(docente.id)).toEqual({ programada: null, sinContrasena: false });
      expect(lecturas).toHaveBeenCalledTimes(1);
      await t.db.update(usuarios).set({ password_hash: null }).where(eq(usuarios.id, docente.id));
      lecturas.mockClear();
      expect(await baja.estado(docente.id)).toEqual({ programada: null, sinContrasena: true });
      expect(lecturas).toHaveBeenCalledTimes(1);
      const fecha = new Date(t.clock.now.getTime() + 14 * DIA);
      await t.db.update(usuarios).set({ baja_programada: fecha, baja_conservar_aportes: false }).where(eq(usuarios.id, docente.id));
      lecturas.mockClear();
      expect(await baja.estado(docente.id)).toEqual({
        programada: { baja_programada: fecha.toISOString(), conservar_aportes: false },
        sinContrasena: true,
      });
      expect(lecturas).toHaveBeenCalledTimes(1);
    } finally {
      lecturas.mockRestore();
    }
  });
});

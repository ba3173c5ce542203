/**
 * 'Primeros pasos' (issue 33, decision 0055) on a fresh database: every step starts undone and
 * ticks as soon as what it asks for exists; opening the curriculum is recorded once, in the audit
 * log. And the console's words: every job type a service registers has its description, so no
 * job reaches /admin/trabajos by its internal name.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRABAJO_DESCONOCIDO, TRABAJOS } from '../../src/lib/palabras-admin.ts';
import { registroAdmin } from '../../src/lib/server/db/schema.server.ts';
import { completos, type createPrimerosPasosService, REVISAR_CURRICULO } from '../../src/lib/server/services/primeros-pasos.server.ts';
import { registrarAccion } from '../../src/lib/server/services/registro.server.ts';
import { registrarTrabajos } from '../../src/lib/server/services/services.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCapsula, insertarCategoria, insertarManual } from '../support/contenido.ts';

let t: TestApi;
let admin: { id: number; email: string; token: string };
let pasos: ReturnType<typeof createPrimerosPasosService>;

beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true, nombre: 'Rosa' });
  pasos = t.api.services.primerosPasos;
});
afterAll(() => t.close());

const revisiones = async () =>
  (await t.db.select().from(registroAdmin).where(eq(registroAdmin.accion, REVISAR_CURRICULO))).map((r) => r.id_admin);

describe('Primeros pasos', () => {
  it('ticks each step as soon as it is done, in any order', async () => {
    expect(await pasos.estado()).toEqual({
      docentes: false,
      categorias: false,
      curriculo: false,
      manual: false,
      capsula: false,
      privacidad: false,
    });

    // Another admin is not a teacher; an invitation (still pending) is.
    await t.createUser({ admin: true });
    expect((await pasos.estado()).docentes).toBe(false);
    const invitacion = await t.call('POST', '/api/admin/usuarios/', {
      token: admin.token,
      json: { email: 'primera.docente@example.cl', nombres: 'Marta', apellidos: 'Rojas' },
    });
    expect(invitacion.status).toBe(201);
    expect((await pasos.estado()).docentes).toBe(true);

    // A category teachers cannot see does not count.
    await insertarCategoria(t, { nombre: 'Borrador', activa: false });
    expect((await pasos.estado()).categorias).toBe(false);
    await insertarCategoria(t, { nombre: 'Convivencia escolar' });
    expect((await pasos.estado()).categorias).toBe(true);

    await insertarCapsula(t, admin, 'Fracciones en la recta');
    expect(await pasos.estado()).toMatchObject({ manual: false, capsula: true });
    await insertarManual(t, admin, 'Guía de lectura');
    expect((await pasos.estado()).manual).toBe(true);

    expect(completos(await pasos.estado())).toBe(false);
    await pasos.registrarRevisionCurriculo({ id: admin.id });
    expect(completos(await pasos.estado())).toBe(false);

    // The privacy notice names who is responsible for the data (issue 31).
    const responsable = { nombre: 'Red de Docentes de Ñuble', direccion: 'Av. Libertad 123, Chillán', correo: 'datos@example.cl' };
    expect((await t.call('PUT', '/api/admin/privacidad/', { token: admin.token, json: responsable })).status).toBe(200);
    const estado = await pasos.estado();
    expect(estado).toEqual({ docentes: true, categorias: true, curriculo: true, manual: true, capsula: true, privacidad: true });
    expect(completos(estado)).toBe(true);
  });

  it('records opening the curriculum once, in the audit log, with the admin who did', async () => {
    await pasos.registrarRevisionCurriculo({ id: admin.id });
    expect(await revisiones()).toEqual([admin.id]);
    const [fila] = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.accion, REVISAR_CURRICULO), eq(registroAdmin.id_admin, admin.id)));
    expect(fila).toMatchObject({
      tipo: 'curriculo',
      admin_email: admin.email,
      detalle: 'Abrió el currículum para revisarlo (Primeros pasos)',
    });
  });

  it('counts an edit of the curriculum as checked, and then records no opening', async () => {
    const otra = await createTestApi();
    try {
      const p = otra.api.services.primerosPasos;
      const yo = await otra.createUser({ admin: true });
      await registrarAccion(otra.db, { id: yo.id }, { accion: 'crear_unidad', tipo: 'unidad', id_registro: 1, detalle: 'Creó la unidad' });
      expect((await p.estado()).curriculo).toBe(true);
      await p.registrarRevisionCurriculo({ id: yo.id });
      expect(await otra.db.select().from(registroAdmin).where(eq(registroAdmin.accion, REVISAR_CURRICULO))).toEqual([]);
    } finally {
      await otra.close();
    }
  });
});

describe('the console names jobs in words', () => {
  it('has a description for every job type a service registers', () => {
    const tipos: string[] = [];
    registrarTrabajos(t.api.services, { register: (tipo) => void tipos.push(tipo) });
    expect(tipos.length).toBeGreaterThanOrEqual(5);
    expect(tipos.filter((tipo) => !(tipo in TRABAJOS))).toEqual([]);
    expect(Object.keys(TRABAJOS).sort()).toEqual([...tipos].sort());
  });

  it('shows a job of an unknown type as a server task, never by its type', async () => {
    await t.jobs.enqueue('tipo-interno-raro', {});
    await t.api.services.subidas.programar();
    const res = await t.call('GET', '/api/admin/trabajos/', { token: admin.token });
    const { en_cola } = (await res.json()) as { en_cola: { tipo: string; descripcion: string }[] };
    const descripciones = en_cola.map((j) => j.descripcion);
    expect(descripciones).toContain(TRABAJO_DESCONOCIDO);
    expect(descripciones).toContain(TRABAJOS['subidas-limpieza']);
    expect(descripciones.join(' ')).not.toMatch(/«|tipo-interno-raro|subidas-limpieza/);
  });
});

/**
 * A followed target with hundreds of followers (issue 35, decision 0074): one upload tells each of
 * them once, from their most specific follow, counts up their unread notification on the next one,
 * and does so in a few statements whatever the number of followers (set-based, not one by one).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/lib/server/db/client.server.ts';
import { materiales, notificaciones, oas, seguimientos, usuarios } from '../../src/lib/server/db/schema.server.ts';
import { avisarNovedad } from '../../src/lib/server/services/seguimientos/avisos.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { llamadas, publicarMaterial, type Sesion, unidadDe } from '../support/contenido.ts';

const POR_OA = 300;
const POR_AUTOR = 50;
const INACTIVOS = 20;

let t: TestApi;
let luis: Sesion;
let ana: Sesion;
let oa = { id: 0, codigo: '' };
let unidad = 0;
let area = 0;
/** The accounts that follow the OA (Ana among them), those that follow only Luis, and the inactive ones. */
let porOa: number[] = [];
let porAutor: number[] = [];
let inactivos: number[] = [];
const { json, post } = llamadas(() => t);
const silencio = { error: () => {} };

/** `n` accounts made at once (no sign-in needed: they are read, not signed in). */
async function cuentas(n: number, prefijo: string, activo = true): Promise<number[]> {
  const filas = await t.db
    .insert(usuarios)
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `${prefijo}.${i}@example.cl`,
        activo,
        primer_nombre: `Docente ${i}`,
        apellido_paterno: 'Muñoz',
        rol: 'Profesor' as const,
        groups: [],
      })),
    )
    .returning({ id: usuarios.id });
  return filas.map((f) => f.id);
}

/** `db` as it is, counting the statements started on it and on its transactions. */
function contado(db: Db): { db: Db; sentencias: () => number } {
  let n = 0;
  const metodos = new Set(['select', 'selectDistinct', 'selectDistinctOn', 'insert', 'update', 'delete', 'execute']);
  const envolver = <T extends object>(objeto: T): T =>
    new Proxy(objeto, {
      get(destino, nombre, receptor) {
        const valor = Reflect.get(destino, nombre, receptor);
        if (typeof valor !== 'function') return valor;
        if (nombre === 'transaction')
          return (trabajo: (tx: unknown) => Promise<unknown>, ...resto: unknown[]) =>
            valor.call(destino, (tx: object) => trabajo(envolver(tx)), ...resto);
        if (typeof nombre === 'string' && metodos.has(nombre))
          return (...args: unknown[]) => {
            n += 1;
            return valor.apply(destino, args);
          };
        return valor.bind(destino);
      },
    });
  return { db: envolver(db), sentencias: () => n };
}

beforeAll(async () => {
  t = await createTestApi();
  luis = await t.session({ nombre: 'Luis' });
  ana = await t.session({ nombre: 'Ana' });
  const u = await unidadDe(t, 'MA', '07');
  unidad = u.id;
  area = u.id_area;
  const [primero] = await t.db.select({ id: oas.id, codigo: oas.codigo }).from(oas).where(eq(oas.unidad, u.id));
  if (!primero) throw new Error('no OA seeded');
  oa = primero;
  porOa = [ana.id, ...(await cuentas(POR_OA - 1, 'oa'))];
  porAutor = await cuentas(POR_AUTOR, 'autor');
  inactivos = await cuentas(INACTIVOS, 'inactivo', false);
  const sigue = (id_usuario: number, tipo: 'oa' | 'usuario' | 'area_nivel') =>
    tipo === 'oa'
      ? { id_usuario, tipo, clave: `oa:${oa.id}`, id_oa: oa.id }
      : tipo === 'usuario'
        ? { id_usuario, tipo, clave: `usuario:${luis.id}`, id_seguido: luis.id }
        : { id_usuario, tipo, clave: `area_nivel:${area}:07`, id_area: area, codigo_nivel: '07' };
  await t.db.insert(seguimientos).values([
    ...porOa.map((id) => sigue(id, 'oa')),
    // A hundred of them also follow Luis and 7° básico Matemática: still one notification each, from the OA.
    ...porOa.slice(0, 100).flatMap((id) => [sigue(id, 'usuario'), sigue(id, 'area_nivel')]),
    ...porAutor.map((id) => sigue(id, 'usuario')),
    ...inactivos.map((id) => sigue(id, 'oa')),
    // The author follows what the material matches: never told of their own.
    sigue(luis.id, 'area_nivel'),
  ]);
});
afterAll(() => t.close());

const deSeguimiento = (ids: number[]) =>
  t.db
    .select()
    .from(notificaciones)
    .where(and(eq(notificaciones.tipo, 'seguimiento'), inArray(notificaciones.id_usuario, ids)));

describe('a target with hundreds of followers', () => {
  it('tells each follower once, from their most specific follow, and counts up on the next item, in a few statements', async () => {
    const aviso = () => ({ db: t.db, now: () => t.clock.now, log: silencio });
    const primera = await publicarMaterial(t, luis, 'Guía de enteros', { unidad, oas: [oa.id] });
    expect(await avisarNovedad(aviso(), { tipo: 'material', id: primera })).toBe(POR_OA + POR_AUTOR);

    const delOa = await deSeguimiento(porOa);
    expect(delOa).toHaveLength(POR_OA);
    expect(new Set(delOa.map((n) => n.id_usuario)).size).toBe(POR_OA);
    expect(new Set(delOa.map((n) => [n.recurso_tipo, n.titulo, n.enlace, n.cantidad, n.detalle, n.id_actor].join('|')))).toEqual(
      new Set([`seguimiento_oa|${oa.codigo}|/biblioteca-docente/${primera}|1|material|${luis.id}`]),
    );
    const deLuis = await deSeguimiento(porAutor);
    expect(deLuis).toHaveLength(POR_AUTOR);
    expect(new Set(deLuis.map((n) => `${n.recurso_tipo}|${n.titulo}`))).toEqual(new Set(['seguimiento_usuario|Luis Pérez']));
    expect(await deSeguimiento([...inactivos, luis.id])).toEqual([]);
    const bandeja = async () =>
      (await json<{ notificaciones: { tipo: string; texto: string }[] }>(ana, '/api/notificaciones/?no_leidas=true')).notificaciones
        .filter((n) => n.tipo === 'seguimiento')
        .map((n) => n.texto);
    expect(await bandeja()).toEqual([`Nuevo material para ${oa.codigo}`]);

    // The next item: the same rows count up, in as few statements as for one follower.
    const segunda = await publicarMaterial(t, luis, 'Guía de racionales', { unidad, oas: [oa.id] });
    const medido = contado(t.db);
    expect(await avisarNovedad({ ...aviso(), db: medido.db }, { tipo: 'material', id: segunda })).toBe(POR_OA + POR_AUTOR);
    expect(medido.sentencias()).toBeLessThan(20);
    const despues = await deSeguimiento([...porOa, ...porAutor]);
    expect(despues).toHaveLength(POR_OA + POR_AUTOR);
    expect(new Set(despues.map((n) => n.cantidad))).toEqual(new Set([2]));
    expect(new Set(despues.filter((n) => n.recurso_tipo === 'seguimiento_oa').map((n) => n.enlace))).toEqual(
      new Set([`/biblioteca-docente/oa/${encodeURIComponent(oa.codigo)}`]),
    );
    expect(await bandeja()).toEqual([`2 materiales nuevos para ${oa.codigo}`]);

    // Once Ana has read hers, the next item starts her a new one; the others keep counting.
    expect((await post(ana, '/api/notificaciones/leidas/', {})).status).toBe(200);
    const tercera = await publicarMaterial(t, luis, 'Guía de potencias', { unidad, oas: [oa.id] });
    await avisarNovedad(aviso(), { tipo: 'material', id: tercera });
    expect(await bandeja()).toEqual([`Nuevo material para ${oa.codigo}`]);
    expect(await deSeguimiento([ana.id])).toHaveLength(2);
    expect(new Set((await deSeguimiento(porOa.slice(1))).map((n) => n.cantidad))).toEqual(new Set([3]));
    await post(ana, '/api/notificaciones/leidas/', {});
  });

  it('tells none of them of a hidden material', async () => {
    const antes = (await t.db.select().from(notificaciones)).length;
    const oculta = await publicarMaterial(t, luis, 'Guía oculta', { unidad, oas: [oa.id] }, { oculto: true });
    expect(await avisarNovedad({ db: t.db, now: () => t.clock.now, log: silencio }, { tipo: 'material', id: oculta })).toBe(0);
    expect((await t.db.select().from(notificaciones)).length).toBe(antes);
    await t.db.delete(materiales).where(eq(materiales.id, oculta));
  });
});

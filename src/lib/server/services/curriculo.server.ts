/**
 * The curriculum the network keeps (issue 30, /admin/curriculo): admins create, rename, reorder,
 * retire and delete units, move, reorder, correct and retire OAs, and import or export a whole
 * curriculum file (services/curriculo/). Nothing a material uses is deleted: it is retired,
 * leaves the forms' and filters' lookups, and stays on the materials marked 'No vigente'
 * (decision 0054). Every change is written to the audit log in its own transaction, and the
 * lookups' memory is forgotten after it.
 */
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { CambioOa, CambioUnidad, FiltrosCurriculo, UnidadNueva } from '../../validation/curriculo.ts';
import { EJEMPLO_CURRICULO } from '../../validation/curriculo.ts';
import type { Db } from '../db/client.server.ts';
import { materiales, oas, unidades } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { ServiceContext } from './context.server.ts';
import { aplicar } from './curriculo/aplicar.server.ts';
import { arbolDe, arbolDelPar, filasExportadas, parDe, resumen, unidadesDelPar } from './curriculo/consultas.server.ts';
import { escribirCsv, leerFilas } from './curriculo/filas.server.ts';
import { claveNombre, planificar } from './curriculo/importar.server.ts';
import { nivelesQueFaltan, unidadEnNivel } from './curriculo/niveles.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

export const UNIDAD_NO_ENCONTRADA = 'No se encontró la unidad';
export const OA_NO_ENCONTRADO = 'No se encontró el OA';
export const UNIDAD_EN_USO = 'La unidad tiene OA o materiales asociados: retírela en lugar de eliminarla';
export const NOMBRE_REPETIDO = 'Ya existe una unidad con ese nombre en la asignatura y el nivel';
export const OTRO_PAR = 'La unidad debe ser de la misma asignatura y nivel del OA';
/** Moving a shared unit's OA to a unit not taught in all of its levels (decision 0084). */
export const sinNiveles = (nombres: string[]) => `La unidad de destino no se imparte en ${nombres.join(' ni en ')}, como la del OA`;

/**
 * Why an OA of unit `origen` may not move to unit `destino`, or null when it may. A shared unit's
 * OA (decision 0084) may go only to a unit taught in all of its levels, so no material aligned to
 * it is left with an OA of another level; one with no level in common is another pair.
 */
async function motivoParaNoMover(tx: Db, origen: { id: number; id_area: number }, destino: { id: number; id_area: number }) {
  if (destino.id_area !== origen.id_area) return OTRO_PAR;
  const faltan = await nivelesQueFaltan(tx, origen.id, destino.id);
  if (faltan.todos) return OTRO_PAR;
  return faltan.nombres.length > 0 ? sinNiveles(faltan.nombres) : null;
}

/** Where `id` goes in `lista` at `posicion` (from 1; past the end means last). */
function mover(lista: number[], id: number, posicion: number | undefined): number[] {
  const resto = lista.filter((x) => x !== id);
  const i = Math.min(Math.max((posicion ?? resto.length + 1) - 1, 0), resto.length);
  return [...resto.slice(0, i), id, ...resto.slice(i)];
}

/** Stores positions 1…n for the ids in this order (only the rows whose position moves). */
async function numerar(tx: Db, tabla: typeof unidades | typeof oas, ids: number[], actuales: Map<number, number>) {
  for (const [i, id] of ids.entries()) {
    if (actuales.get(id) !== i + 1)
      await tx
        .update(tabla)
        .set({ orden: i + 1 })
        .where(eq(tabla.id, id));
  }
}

export function createCurriculoService(ctx: ServiceContext) {
  const { db } = ctx;

  /** Runs a change in one transaction (the lookups' cache sees the tables it wrote at its commit). */
  const cambiar = <T>(hacer: (tx: Db) => Promise<T>): Promise<T> => db.transaction(hacer);

  async function unidadBloqueada(tx: Db, id: number) {
    const [u] = await tx.select().from(unidades).where(eq(unidades.id, id)).for('update');
    if (!u) throw new ErrorDeDominio(404, UNIDAD_NO_ENCONTRADA);
    return u;
  }

  async function nombreLibre(tx: Db, area: number, nivel: string, nombre: string, salvo?: number) {
    const hermanas = await tx
      .select({ nombre: unidades.nombre })
      .from(unidades)
      .where(and(eq(unidades.id_area, area), unidadEnNivel(nivel), salvo ? ne(unidades.id, salvo) : undefined));
    if (hermanas.some((h) => claveNombre(h.nombre) === claveNombre(nombre)))
      throw new ErrorDeDominio(400, NOMBRE_REPETIDO, { errors: { nombre: [NOMBRE_REPETIDO] } });
  }

  async function unaUnidad(en: Db, id: number): Promise<Esquema<'UnidadCurriculoAdmin'>> {
    const [u] = await en.select().from(unidades).where(eq(unidades.id, id));
    if (!u) throw new ErrorDeDominio(404, UNIDAD_NO_ENCONTRADA);
    const hermanas = await unidadesDelPar(en, u.id_area, u.codigo_nivel);
    const arbol = await arbolDe(en, hermanas);
    const propia = arbol.find((x) => x.id === id);
    if (!propia) throw new ErrorDeDominio(404, UNIDAD_NO_ENCONTRADA);
    return propia;
  }

  const ordenDe = async (tx: Db, unidad: number) =>
    tx.select({ id: oas.id, orden: oas.orden }).from(oas).where(eq(oas.unidad, unidad)).orderBy(asc(oas.orden), asc(oas.codigo));

  return {
    resumen: (filtros: Partial<FiltrosCurriculo>) => resumen(db, filtros),
    par: (area: string, nivel: string) => arbolDelPar(db, area, nivel),

    /** A new, empty unit at the end of its pair, coded `<AREA><NIVEL> U<n>`. */
    async crearUnidad(actor: ActorAdmin, input: UnidadNueva): Promise<Esquema<'UnidadCurriculoAdmin'>> {
      const id = await cambiar(async (tx) => {
        const { area, nivel } = await parDe(tx, input.area, input.nivel, 400);
        // One unit creation per pair at a time: the next code and position are read, then written.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`unidades:${area.id}:${nivel.codigo}`}))`);
        await nombreLibre(tx, area.id, nivel.codigo, input.nombre);
        const prefijo = `${area.codigo}${nivel.codigo} U`;
        const codigos = await tx
          .select({ codigo: unidades.codigo })
          .from(unidades)
          .where(sql`upper(${unidades.codigo}) like ${`${prefijo.toUpperCase()}%`}`);
        const n = Math.max(0, ...codigos.map((c) => Number(/^(\d+)$/.exec(c.codigo.slice(prefijo.length))?.[1] ?? 0)));
        const hermanas = await unidadesDelPar(tx, area.id, nivel.codigo);
        await numerar(
          tx,
          unidades,
          hermanas.map((h) => h.id),
          new Map(hermanas.map((h) => [h.id, h.orden])),
        );
        const [fila] = await tx
          .insert(unidades)
          .values({
            codigo: `${prefijo}${n + 1}`,
            nombre: input.nombre,
            id_area: area.id,
            codigo_nivel: nivel.codigo,
            orden: hermanas.length + 1,
          })
          .returning();
        if (!fila) throw new Error('unit not stored');
        await registrarAccion(tx, actor, {
          accion: 'crear_unidad',
          tipo: 'unidad',
          id_registro: fila.id,
          detalle: `Creó la unidad «${fila.nombre}» (${fila.codigo}) en ${area.nombre} de ${nivel.nombre}`,
        });
        return fila.id;
      });
      return unaUnidad(db, id);
    },

    async editarUnidad(actor: ActorAdmin, id: number, cambio: CambioUnidad): Promise<Esquema<'UnidadCurriculoAdmin'>> {
      await cambiar(async (tx) => {
        const u = await unidadBloqueada(tx, id);
        const registrar = (accion: string, detalle: string) =>
          registrarAccion(tx, actor, { accion, tipo: 'unidad', id_registro: id, detalle });
        if (cambio.nombre !== undefined && cambio.nombre !== u.nombre) {
          await nombreLibre(tx, u.id_area, u.codigo_nivel, cambio.nombre, id);
          await tx.update(unidades).set({ nombre: cambio.nombre }).where(eq(unidades.id, id));
          await registrar('renombrar_unidad', `Renombró la unidad ${u.codigo} de «${u.nombre}» a «${cambio.nombre}»`);
        }
        if (cambio.orden !== undefined) {
          const hermanas = await unidadesDelPar(tx, u.id_area, u.codigo_nivel);
          const antes = hermanas.findIndex((h) => h.id === id) + 1;
          const orden = mover(
            hermanas.map((h) => h.id),
            id,
            cambio.orden,
          );
          await numerar(tx, unidades, orden, new Map(hermanas.map((h) => [h.id, h.orden])));
          const ahora = orden.indexOf(id) + 1;
          if (ahora !== antes)
            await registrar(
              'ordenar_unidad',
              `Movió la unidad «${cambio.nombre ?? u.nombre}» (${u.codigo}) de la posición ${antes} a la ${ahora}`,
            );
        }
        if (cambio.vigente !== undefined && cambio.vigente !== u.vigente) {
          await tx.update(unidades).set({ vigente: cambio.vigente }).where(eq(unidades.id, id));
          await registrar(
            cambio.vigente ? 'restaurar_unidad' : 'retirar_unidad',
            `${cambio.vigente ? 'Restauró' : 'Retiró'} la unidad «${cambio.nombre ?? u.nombre}» (${u.codigo})`,
          );
        }
      });
      return unaUnidad(db, id);
    },

    /** Only an empty unit no material has: anything in use is retired instead. */
    async eliminarUnidad(actor: ActorAdmin, id: number): Promise<void> {
      await cambiar(async (tx) => {
        const u = await unidadBloqueada(tx, id);
        const [[conOas], [conMateriales]] = await Promise.all([
          tx.select({ n: count() }).from(oas).where(eq(oas.unidad, id)),
          tx.select({ n: count() }).from(materiales).where(eq(materiales.id_unidad, id)),
        ]);
        if ((conOas?.n ?? 0) > 0 || (conMateriales?.n ?? 0) > 0) throw new ErrorDeDominio(409, UNIDAD_EN_USO);
        await tx.delete(unidades).where(eq(unidades.id, id));
        const hermanas = await unidadesDelPar(tx, u.id_area, u.codigo_nivel);
        await numerar(
          tx,
          unidades,
          hermanas.map((h) => h.id),
          new Map(hermanas.map((h) => [h.id, h.orden])),
        );
        await registrarAccion(tx, actor, {
          accion: 'eliminar_unidad',
          tipo: 'unidad',
          id_registro: id,
          detalle: `Eliminó la unidad vacía «${u.nombre}» (${u.codigo})`,
        });
      });
    },

    /** Moves (within its pair), reorders, corrects or retires an OA. OAs are never deleted. */
    async editarOa(actor: ActorAdmin, id: number, cambio: CambioOa): Promise<Esquema<'OaCurriculoAdmin'>> {
      await cambiar(async (tx) => {
        const [o] = await tx.select().from(oas).where(eq(oas.id, id)).for('update');
        if (!o) throw new ErrorDeDominio(404, OA_NO_ENCONTRADO);
        const registrar = (accion: string, detalle: string) => registrarAccion(tx, actor, { accion, tipo: 'oa', id_registro: id, detalle });
        const origen = await unidadBloqueada(tx, o.unidad);
        let destino = origen;
        if (cambio.unidad !== undefined && cambio.unidad !== o.unidad) {
          const [d] = await tx.select().from(unidades).where(eq(unidades.id, cambio.unidad)).for('update');
          if (!d) throw new ErrorDeDominio(400, UNIDAD_NO_ENCONTRADA, { errors: { unidad: [UNIDAD_NO_ENCONTRADA] } });
          const mensaje = await motivoParaNoMover(tx, origen, d);
          if (mensaje) throw new ErrorDeDominio(400, mensaje, { errors: { unidad: [mensaje] } });
          destino = d;
          await tx.update(oas).set({ unidad: d.id }).where(eq(oas.id, id));
          const quedan = await ordenDe(tx, origen.id);
          await numerar(
            tx,
            oas,
            quedan.map((q) => q.id),
            new Map(quedan.map((q) => [q.id, q.orden])),
          );
          await registrar('mover_oa', `Movió el OA ${o.codigo} de la unidad «${origen.nombre}» a «${d.nombre}»`);
        }
        if (cambio.orden !== undefined || destino !== origen) {
          const hermanos = await ordenDe(tx, destino.id);
          const ids = hermanos.map((h) => h.id);
          const antes = destino === origen ? ids.indexOf(id) + 1 : 0;
          const orden = mover(ids, id, cambio.orden);
          await numerar(tx, oas, orden, new Map(hermanos.map((h) => [h.id, h.id === id && destino !== origen ? -1 : h.orden])));
          const ahora = orden.indexOf(id) + 1;
          if (cambio.orden !== undefined && ahora !== antes)
            await registrar('ordenar_oa', `Cambió la posición del OA ${o.codigo} en la unidad «${destino.nombre}» a la ${ahora}`);
        }
        if (cambio.descripcion !== undefined && cambio.descripcion !== o.descripcion) {
          await tx.update(oas).set({ descripcion: cambio.descripcion }).where(eq(oas.id, id));
          await registrar('editar_oa', `Corrigió el enunciado del OA ${o.codigo}: antes «${o.descripcion}»`);
        }
        if (cambio.vigente !== undefined && cambio.vigente !== o.vigente) {
          await tx.update(oas).set({ vigente: cambio.vigente }).where(eq(oas.id, id));
          await registrar(cambio.vigente ? 'restaurar_oa' : 'retirar_oa', `${cambio.vigente ? 'Restauró' : 'Retiró'} el OA ${o.codigo}`);
        }
      });
      const [o] = await db.select({ unidad: oas.unidad }).from(oas).where(eq(oas.id, id));
      const unidad = o && (await unaUnidad(db, o.unidad));
      const propio = unidad?.oas.find((x) => x.id === id);
      if (!propio) throw new ErrorDeDominio(404, OA_NO_ENCONTRADO);
      return propio;
    },

    /** The export (or the example) as a file: its name, type and body. */
    async exportar(filtro: { formato: 'csv' | 'json'; area?: string | undefined; nivel?: string | undefined }) {
      const { filas, nombre } = await filasExportadas(db, filtro);
      return archivo(filas, nombre, filtro.formato);
    },
    ejemplo: (formato: 'csv' | 'json') => archivo(EJEMPLO_CURRICULO, 'curriculo-ejemplo', formato),

    /**
     * A curriculum file: the plan without `confirmar`; with it, the plan computed again and applied
     * in one transaction with one audit entry, or a 400 listing the lines with errors.
     */
    async importar(actor: ActorAdmin, texto: string, esJson: boolean, confirmar: boolean): Promise<Esquema<'ImportacionCurriculo'>> {
      const { filas } = leerFilas(texto, esJson);
      if (!confirmar) return { confirmado: false, ...(await planificar(db, filas)).resumen };
      const resumenAplicado = await cambiar(async (tx) => {
        // One import at a time: two would each retire what the other adds.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('curriculo:importar'))`);
        const plan = await planificar(tx, filas);
        const { errores } = plan.resumen;
        if (errores.length > 0) {
          throw new ErrorDeDominio(
            400,
            `El archivo tiene errores en ${errores.length} ${errores.length === 1 ? 'línea' : 'líneas'}; no se aplicó ningún cambio`,
            {
              lineas: errores,
            },
          );
        }
        await aplicar(tx, plan);
        const r = plan.resumen;
        const pares = r.pares.map((p) => `${p.area} ${p.nivel}`).join(', ');
        const detalle = r.cambios
          .slice(0, 1000)
          .map((c) => `${c.tipo} ${c.objeto === 'oa' ? 'OA' : 'unidad'} ${c.codigo}${c.despues ? `: ${c.despues}` : ''}`);
        if (r.cambios.length > 1000) detalle.push(`… y ${r.cambios.length - 1000} cambios más`);
        await registrarAccion(tx, actor, {
          accion: 'importar_curriculo',
          tipo: 'curriculo',
          id_registro: null,
          detalle: `Importó el currículum de ${r.pares.length} ${r.pares.length === 1 ? 'par' : 'pares'} (${pares}): ${r.agregados} agregados, ${r.cambiados} cambiados, ${r.retirados} retirados, ${r.sin_cambios} sin cambios.${detalle.length > 0 ? ` Detalle: ${detalle.join('; ')}` : ''}`,
        });
        return r;
      });
      ctx.log.info('curriculum imported', {
        adminId: actor.id,
        pares: resumenAplicado.pares.length,
        cambios: resumenAplicado.cambios.length,
      });
      return { confirmado: true, ...resumenAplicado };
    },
  };
}

function archivo(filas: readonly Esquema<'FilaCurriculo'>[], nombre: string, formato: 'csv' | 'json') {
  return formato === 'json'
    ? { nombre: `${nombre}.json`, tipo: 'application/json; charset=utf-8', cuerpo: JSON.stringify(filas, null, 2), filas }
    : { nombre: `${nombre}.csv`, tipo: 'text/csv; charset=utf-8', cuerpo: escribirCsv(filas), filas };
}

export type CurriculoService = ReturnType<typeof createCurriculoService>;

/** Why a material may not take this unit or these OAs: retired ones it does not already have. */
export async function retiradosNuevos(
  db: Pick<Db, 'select'>,
  eleccion: { id_unidad: number; oas: number[] },
  yaTiene: { id_unidad: number | null; oas: number[] } = { id_unidad: null, oas: [] },
): Promise<{ unidad?: string; oas?: string }> {
  const out: { unidad?: string; oas?: string } = {};
  if (eleccion.id_unidad !== yaTiene.id_unidad) {
    const [u] = await db.select({ vigente: unidades.vigente }).from(unidades).where(eq(unidades.id, eleccion.id_unidad));
    if (u && !u.vigente) out.unidad = 'La unidad ya no está vigente';
  }
  const nuevos = eleccion.oas.filter((id) => !yaTiene.oas.includes(id));
  if (nuevos.length > 0) {
    const retirados = (
      await db
        .select({ codigo: oas.codigo })
        .from(oas)
        .innerJoin(unidades, eq(unidades.id, oas.unidad))
        .where(and(inArray(oas.id, nuevos), sql`not (${oas.vigente} and ${unidades.vigente})`))
        .orderBy(asc(oas.codigo))
    ).map((f) => f.codigo);
    if (retirados.length === 1) out.oas = `El OA ${retirados[0]} ya no está vigente`;
    else if (retirados.length > 1) out.oas = `Los OA ${retirados.join(', ')} ya no están vigentes`;
  }
  return out;
}

/**
 * The curriculum import's plan and its application (issue 30). The file is the whole curriculum
 * of the (area, nivel) pairs it mentions: its units (by name) and OAs (by code) are added or
 * updated, and what those pairs hold that the file leaves out is retired, never deleted. The plan
 * is computed from the file and the database alone (the preview keeps no state); confirming
 * computes it again inside the transaction that applies it.
 *
 * "In force" is compared as people see it: an OA is in force when it and its unit are, so a row
 * 'vigente: no' under a retired unit is no change. The stored flags are still written to match the
 * file, so the state after an import is the file's whichever unit an OA ends in.
 */
import type { Esquema } from '../../../api/contrato.ts';
import { codigoDelPar, normalizarCodigo } from '../../../validation/curriculo.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, areasNiveles, niveles, oas, unidades, unidadesNiveles } from '../../db/schema.server.ts';
import { columnasOpcionales, type FilaLeida, type FilaRevisada, type LineaConError, revisarFila } from './filas.server.ts';

type Resumen = Esquema<'ImportacionCurriculo'>;
type Cambio = Resumen['cambios'][number];

/** Names compared as people write them: case, accents and spacing aside. */
export const claveNombre = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

export interface UnidadPlan {
  id: number | undefined;
  codigo: string;
  area: number;
  nivel: string;
  nombre: string;
  orden: number;
  vigente: boolean;
  /** Whether the row differs from what is stored (written even when it is no visible change). */
  escribir: boolean;
  /** The other levels to store (decision 0084); undefined when they stay as they are. */
  otros?: string[] | undefined;
}

export interface OaPlan {
  id: number | undefined;
  codigo: string;
  /** The unit's plan, by its key in the plan (its code). */
  unidad: string;
  orden: number;
  descripcion: string;
  vigente: boolean;
  fuente: string | null;
  escribir: boolean;
}

export interface Plan {
  resumen: Omit<Resumen, 'confirmado'>;
  unidades: UnidadPlan[];
  oas: OaPlan[];
}

const describirOa = (o: { descripcion: string; orden: number; vigente: boolean }, nombreUnidad: string) =>
  `${o.vigente ? 'vigente' : 'no vigente'} · ${nombreUnidad} · posición ${o.orden} · «${o.descripcion}»`;
const describirUnidad = (u: { nombre: string; orden: number; vigente: boolean; tambien?: string }) =>
  `${u.vigente ? 'vigente' : 'no vigente'} · «${u.nombre}» · posición ${u.orden}${u.tambien ? ` · también en ${u.tambien}` : ''}`;
/** Level codes in one order, to compare two lists. */
const mismos = (a: readonly string[], b: readonly string[]) => [...a].sort().join(' ') === [...b].sort().join(' ');

/** Positions from 1 by an explicit order when given, else by the file's order. */
function posiciones<T extends { orden: number | undefined; indice: number }>(lista: T[]): Map<T, number> {
  const orden = [...lista].sort(
    (a, b) => (a.orden ?? Number.MAX_SAFE_INTEGER) - (b.orden ?? Number.MAX_SAFE_INTEGER) || a.indice - b.indice,
  );
  return new Map(orden.map((x, i) => [x, i + 1]));
}

/** The plan of a file's rows against the database (read through `db`, a transaction when applying). */
export async function planificar(db: Pick<Db, 'select'>, leidas: FilaLeida[]): Promise<Plan> {
  const errores: LineaConError[] = [];
  const opcionales = columnasOpcionales(leidas);
  const [todasAreas, todosNiveles, ensenados, todasUnidades, todosOas, compartidas] = await Promise.all([
    db.select({ id: areas.id, codigo: areas.codigo, nombre: areas.nombre }).from(areas),
    db.select({ codigo: niveles.codigo, nombre: niveles.nombre }).from(niveles),
    db.select().from(areasNiveles),
    db
      .select({
        id: unidades.id,
        codigo: unidades.codigo,
        nombre: unidades.nombre,
        area: unidades.id_area,
        nivel: unidades.codigo_nivel,
        orden: unidades.orden,
        vigente: unidades.vigente,
      })
      .from(unidades)
      .orderBy(unidades.orden, unidades.codigo),
    db
      .select({
        id: oas.id,
        codigo: oas.codigo,
        descripcion: oas.descripcion,
        unidad: oas.unidad,
        orden: oas.orden,
        vigente: oas.vigente,
        fuente: oas.fuente,
      })
      .from(oas)
      .orderBy(oas.orden, oas.codigo),
    db.select().from(unidadesNiveles),
  ]);
  const otrosDe = new Map<number, string[]>();
  for (const c of compartidas) otrosDe.set(c.id_unidad, [...(otrosDe.get(c.id_unidad) ?? []), c.codigo_nivel]);
  const areaPor = new Map<string, (typeof todasAreas)[number]>();
  for (const a of todasAreas) {
    areaPor.set(a.codigo.toUpperCase(), a);
    areaPor.set(claveNombre(a.nombre), a);
  }
  const nivelPor = new Map<string, (typeof todosNiveles)[number]>();
  for (const n of todosNiveles) {
    nivelPor.set(n.codigo.toUpperCase(), n);
    nivelPor.set(claveNombre(n.nombre), n);
  }
  const ensenado = new Set(ensenados.map((e) => `${e.id_area}:${e.codigo_nivel}`));
  const nombresDe = (codigos: readonly string[]) => codigos.map((c) => nivelPor.get(c)?.nombre ?? c).join(' y ') || undefined;
  const unidadPorId = new Map(todasUnidades.map((u) => [u.id, u]));
  // Keyed as the file's codes are read (normalizarCodigo keeps the 'y' of '3y4').
  const oaPorCodigo = new Map(todosOas.map((o) => [normalizarCodigo(o.codigo), o]));

  // Each row on its own, then against the curriculum's names and codes.
  type Fila = FilaRevisada & { areaId: number; areaCodigo: string; nivelCodigo: string; indice: number };
  const filas: Fila[] = [];
  const vistos = new Map<string, number>();
  const revisar = (leida: FilaLeida, indice: number): Fila | string => {
    const r = revisarFila(leida, opcionales);
    if (!('oa' in r)) return r.mensaje;
    const area = areaPor.get(r.area.toUpperCase()) ?? areaPor.get(claveNombre(r.area));
    if (!area) return `La asignatura «${r.area}» no existe: usa su código (por ejemplo MA) o su nombre`;
    const nivel = nivelPor.get(r.nivel.toUpperCase()) ?? nivelPor.get(claveNombre(r.nivel));
    if (!nivel) return `El nivel «${r.nivel}» no existe: usa su código (por ejemplo 07 o 1M) o su nombre`;
    if (!ensenado.has(`${area.id}:${nivel.codigo}`)) return `${area.nombre} no se enseña en ${nivel.nombre}`;
    if (!codigoDelPar(r.oa, area.codigo, nivel.codigo))
      return `El código ${r.oa} no corresponde a ${area.nombre} de ${nivel.nombre} (se espera ${area.codigo}${nivel.codigo} OA …)`;
    const otros: string[] = [];
    for (const codigo of r.otros_niveles ?? []) {
      const otro = nivelPor.get(codigo);
      if (!otro) return `El nivel «${codigo}» de otros_niveles no existe: usa su código (por ejemplo 4M)`;
      if (otro.codigo === nivel.codigo) return `otros_niveles repite el nivel de la fila (${nivel.nombre})`;
      if (!ensenado.has(`${area.id}:${otro.codigo}`)) return `${area.nombre} no se enseña en ${otro.nombre} (otros_niveles)`;
      otros.push(otro.codigo);
    }
    const anterior = vistos.get(r.oa);
    if (anterior !== undefined) return `El OA ${r.oa} está repetido en el archivo (línea ${anterior})`;
    vistos.set(r.oa, r.linea);
    const existente = oaPorCodigo.get(r.oa);
    const suUnidad = existente ? unidadPorId.get(existente.unidad) : undefined;
    if (suUnidad && (suUnidad.area !== area.id || suUnidad.nivel !== nivel.codigo)) {
      const otra = todasAreas.find((a) => a.id === suUnidad.area);
      return `El OA ${r.oa} ya existe en otra asignatura o nivel (${otra?.codigo ?? '?'} ${suUnidad.nivel})`;
    }
    return { ...r, otros_niveles: r.otros_niveles && otros, areaId: area.id, areaCodigo: area.codigo, nivelCodigo: nivel.codigo, indice };
  };
  for (const [indice, leida] of leidas.entries()) {
    const r = revisar(leida, indice);
    if (typeof r === 'string') errores.push({ linea: leida.linea, mensaje: r });
    else filas.push(r);
  }

  // The file's units, by pair and name, with their order; a unit given two orders is an error.
  const pares = new Map<string, { area: number; areaCodigo: string; nivel: string }>();
  type UnidadArchivo = Pick<Fila, 'indice' | 'linea' | 'vigente'> & { par: string; nombre: string; orden?: number; otros?: string[] };
  const unidadesArchivo = new Map<string, UnidadArchivo>();
  for (const f of filas) {
    const par = `${f.areaId}:${f.nivelCodigo}`;
    if (!pares.has(par)) pares.set(par, { area: f.areaId, areaCodigo: f.areaCodigo, nivel: f.nivelCodigo });
    const k = `${par}:${claveNombre(f.unidad)}`;
    const u = unidadesArchivo.get(k);
    const datos = { par, nombre: f.unidad, orden: f.unidad_orden, indice: f.indice, linea: f.linea, vigente: f.vigente };
    if (!u) unidadesArchivo.set(k, { ...datos, otros: f.otros_niveles });
    else {
      if (f.unidad_orden !== undefined && u.orden !== undefined && f.unidad_orden !== u.orden)
        errores.push({ linea: f.linea, mensaje: `La unidad «${f.unidad}» tiene otro orden en la línea ${u.linea}` });
      if (f.otros_niveles && u.otros && !mismos(f.otros_niveles, u.otros))
        errores.push({ linea: f.linea, mensaje: `La unidad «${f.unidad}» tiene otros niveles (otros_niveles) en la línea ${u.linea}` });
      u.orden ??= f.unidad_orden;
      u.vigente ||= f.vigente;
    }
  }

  const cambios: Cambio[] = [];
  const cuenta = { agregados: 0, cambiados: 0, retirados: 0, sin_cambios: 0 };
  const planUnidades: UnidadPlan[] = [];
  const planPorClave = new Map<string, UnidadPlan>();
  const siguiente = new Map<string, number>();
  const codigoNuevo = (areaCodigo: string, nivel: string) => {
    const prefijo = `${areaCodigo}${nivel} U`.toUpperCase();
    let n = siguiente.get(prefijo);
    if (n === undefined) {
      n = 0;
      for (const u of todasUnidades) {
        const m = u.codigo.toUpperCase().startsWith(prefijo) ? /^(\d+)$/.exec(u.codigo.slice(prefijo.length)) : null;
        if (m) n = Math.max(n, Number(m[1]));
      }
    }
    siguiente.set(prefijo, n + 1);
    return `${areaCodigo}${nivel} U${n + 1}`;
  };

  for (const [par, { area, areaCodigo, nivel }] of pares) {
    const existentes = todasUnidades.filter((u) => u.area === area && u.nivel === nivel);
    const delArchivo = [...unidadesArchivo.entries()].filter(([, u]) => u.par === par);
    const pos = posiciones(delArchivo.map(([k, u]) => ({ k, u, orden: u.orden, indice: u.indice })));
    const usadas = new Set<number>();
    for (const [x, posicion] of pos) {
      const previa = existentes.find((e) => !usadas.has(e.id) && claveNombre(e.nombre) === claveNombre(x.u.nombre));
      if (previa) usadas.add(previa.id);
      const guardados = previa ? (otrosDe.get(previa.id) ?? []) : [];
      const otros = x.u.otros ?? guardados;
      const plan: UnidadPlan = {
        id: previa?.id,
        codigo: previa?.codigo ?? codigoNuevo(areaCodigo, nivel),
        area,
        nivel,
        nombre: x.u.nombre,
        orden: posicion,
        vigente: x.u.vigente,
        escribir: true,
        otros: mismos(otros, guardados) ? undefined : otros,
      };
      const despues = { ...plan, tambien: nombresDe(otros) };
      planPorClave.set(x.k, plan);
      planUnidades.push(plan);
      if (!previa) {
        cuenta.agregados++;
        cambios.push({ tipo: 'agregado', objeto: 'unidad', codigo: plan.codigo, antes: null, despues: describirUnidad(despues) });
        continue;
      }
      const antes = {
        nombre: previa.nombre,
        orden: existentes.indexOf(previa) + 1,
        vigente: previa.vigente,
        tambien: nombresDe(guardados),
      };
      plan.escribir = previa.nombre !== plan.nombre || previa.orden !== plan.orden || previa.vigente !== plan.vigente;
      if (antes.nombre !== plan.nombre || antes.orden !== plan.orden || antes.vigente !== plan.vigente || plan.otros) {
        cuenta.cambiados++;
        cambios.push({
          tipo: 'cambiado',
          objeto: 'unidad',
          codigo: plan.codigo,
          antes: describirUnidad(antes),
          despues: describirUnidad(despues),
        });
      } else cuenta.sin_cambios++;
    }
    // What the pair holds that the file leaves out: retired, placed after the file's units.
    let despues = pos.size;
    for (const e of existentes) {
      if (usadas.has(e.id)) continue;
      const plan: UnidadPlan = { ...e, orden: ++despues, vigente: false, escribir: true };
      plan.escribir = e.orden !== plan.orden || e.vigente;
      planUnidades.push(plan);
      planPorClave.set(`id:${e.id}`, plan);
      if (e.vigente) {
        cuenta.retirados++;
        cambios.push({
          tipo: 'retirado',
          objeto: 'unidad',
          codigo: e.codigo,
          antes: describirUnidad({ ...e, orden: existentes.indexOf(e) + 1 }),
          despues: null,
        });
      }
    }
  }

  // The OAs: the file's, then the pairs' others retired.
  const planOas: OaPlan[] = [];
  const porUnidad = new Map<string, Fila[]>();
  for (const f of filas) {
    const k = `${f.areaId}:${f.nivelCodigo}:${claveNombre(f.unidad)}`;
    const lista = porUnidad.get(k);
    if (lista) lista.push(f);
    else porUnidad.set(k, [f]);
  }
  const vigenteAhora = (o: { vigente: boolean; unidad: number }) => o.vigente && (unidadPorId.get(o.unidad)?.vigente ?? false);
  const posicionesActuales = new Map<number, number>();
  const contados = new Map<number, number>();
  for (const o of todosOas) {
    const n = (contados.get(o.unidad) ?? 0) + 1;
    contados.set(o.unidad, n);
    posicionesActuales.set(o.id, n);
  }
  for (const [k, lista] of porUnidad) {
    const unidad = planPorClave.get(k);
    if (!unidad) continue;
    const pos = posiciones(lista.map((f) => ({ f, orden: f.oa_orden, indice: f.indice })));
    for (const [{ f }, posicion] of pos) {
      const previo = oaPorCodigo.get(f.oa);
      const plan: OaPlan = {
        id: previo?.id,
        codigo: previo?.codigo ?? f.oa,
        unidad: unidad.codigo,
        orden: posicion,
        descripcion: f.descripcion,
        vigente: f.vigente,
        fuente: f.fuente === undefined ? (previo?.fuente ?? null) : f.fuente,
        escribir: true,
      };
      planOas.push(plan);
      if (!previo) {
        cuenta.agregados++;
        cambios.push({ tipo: 'agregado', objeto: 'oa', codigo: plan.codigo, antes: null, despues: describirOa(plan, unidad.nombre) });
        continue;
      }
      const unidadAntes = unidadPorId.get(previo.unidad);
      const antes = {
        ...previo,
        unidad: unidadAntes?.codigo ?? '',
        orden: posicionesActuales.get(previo.id) ?? 1,
        vigente: vigenteAhora(previo),
      };
      plan.escribir =
        previo.unidad !== unidad.id ||
        previo.orden !== plan.orden ||
        previo.descripcion !== plan.descripcion ||
        previo.vigente !== plan.vigente ||
        previo.fuente !== plan.fuente ||
        unidad.id === undefined;
      const visible =
        antes.unidad !== plan.unidad ||
        antes.orden !== plan.orden ||
        antes.descripcion !== plan.descripcion ||
        antes.vigente !== plan.vigente ||
        (previo.fuente ?? null) !== plan.fuente;
      if (visible) {
        cuenta.cambiados++;
        cambios.push({
          tipo: 'cambiado',
          objeto: 'oa',
          codigo: plan.codigo,
          antes: describirOa(antes, unidadAntes?.nombre ?? ''),
          despues: describirOa(plan, unidad.nombre),
        });
      } else cuenta.sin_cambios++;
    }
  }
  const enArchivo = new Set(planOas.map((o) => o.codigo.toUpperCase()));
  const oasPorUnidad = new Map<number, (typeof todosOas)[number][]>();
  for (const o of todosOas) {
    const lista = oasPorUnidad.get(o.unidad);
    if (lista) lista.push(o);
    else oasPorUnidad.set(o.unidad, [o]);
  }
  const enPlan = new Map<string, number>();
  for (const o of planOas) enPlan.set(o.unidad, (enPlan.get(o.unidad) ?? 0) + 1);
  for (const u of planUnidades) {
    if (u.id === undefined) continue;
    const resto = (oasPorUnidad.get(u.id) ?? []).filter((o) => !enArchivo.has(o.codigo.toUpperCase()));
    const yaEnUnidad = enPlan.get(u.codigo) ?? 0;
    resto.forEach((o, i) => {
      const plan: OaPlan = {
        ...o,
        unidad: u.codigo,
        orden: yaEnUnidad + i + 1,
        vigente: false,
        escribir: o.vigente || o.orden !== yaEnUnidad + i + 1,
      };
      planOas.push(plan);
      if (vigenteAhora(o)) {
        cuenta.retirados++;
        cambios.push({
          tipo: 'retirado',
          objeto: 'oa',
          codigo: o.codigo,
          antes: describirOa({ ...o, vigente: true, orden: posicionesActuales.get(o.id) ?? 1 }, u.nombre),
          despues: null,
        });
      }
    });
  }
  errores.sort((a, b) => a.linea - b.linea);
  return {
    resumen: {
      ...cuenta,
      pares: [...pares.values()].map((p) => ({ area: p.areaCodigo, nivel: p.nivel })),
      cambios,
      errores,
    },
    unidades: planUnidades,
    oas: planOas,
  };
}

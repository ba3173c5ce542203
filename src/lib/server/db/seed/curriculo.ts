/**
 * The shipped curriculum (issue 30): the units of `curriculum-data.ts` plus one checked file per
 * (asignatura, nivel) in `curriculo/` (format in curriculo/README.md), read into one list of pairs.
 * A file without units gets one unit that holds all of its OAs, so the cascade area -> nivel ->
 * unidad -> OA works for every pair that has OAs; an OA a file's units leave out goes to a last
 * unit of its own. A file for a pair that curriculum-data.ts already has adds the OAs its units lack, in
 * that last unit. A file may name several levels (`niveles`, decision 0084): a module of "3° o 4°
 * medio" or a núcleo of the transition tramo, whose units are taught in each of them. Both the seed
 * and `npm run curriculo -- cobertura` read it from here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { codigoDelPar, ENUNCIADO_MAX, normalizarCodigo } from '../../../validation/curriculo.ts';
import * as data from './curriculum-data.ts';

const url = z.url({ protocol: /^https?$/, error: 'fuente debe ser la dirección de la página consultada' });

const archivoPar = z.strictObject({
  area: z.string(),
  /** One level, or `niveles`: every level the file's units are taught in, the first stored as theirs. */
  nivel: z.string().optional(),
  niveles: z.array(z.string()).min(2).optional(),
  bases: z.strictObject({ oas: z.number().int().positive(), fuente: url, nota: z.string().min(1).optional() }).nullable(),
  unidades: z.array(z.strictObject({ nombre: z.string().min(1), fuente: url, oas: z.array(z.string()).min(1) })),
  oas: z.array(
    z.strictObject({
      codigo: z.string(),
      descripcion: z.string().trim().min(1).max(ENUNCIADO_MAX),
      fuente: url,
      nota: z.string().optional(),
    }),
  ),
  faltantes: z.array(z.strictObject({ codigo: z.string(), motivo: z.string().min(1) })),
});

export interface OACurricular {
  codigo: string;
  descripcion: string;
  /** The page the statement was checked against; null for the older seed units (see curriculum-data.ts). */
  fuente: string | null;
}

export interface UnidadCurricular {
  codigo: string;
  nombre: string;
  oas: OACurricular[];
}

export interface ParCurricular {
  area: string;
  nivel: string;
  /** The other levels its units are also taught in (decision 0084); empty for most pairs. */
  otrosNiveles: string[];
  unidades: UnidadCurricular[];
  /** The number of OAs the Bases Curriculares give the pair, with where that was read (and, in `nota`, the two
   * copies that agree on it, decision 0075); null when not verified. */
  bases: { oas: number; fuente: string; nota?: string } | null;
  faltantes: { codigo: string; motivo: string }[];
}

export const CARPETA = join(import.meta.dirname, 'curriculo');

const areaPorCodigo = new Map(data.areas.map((a) => [a.codigo, a]));
const nivelPorCodigo = new Map(data.niveles.map((n) => [n.codigo, n]));

/**
 * Whether `codigo` is written as an official code of the pair: 'HI05 OA 01' (area, level, ' OA ',
 * two digits) or the Bases 2019 form of 3° and 4° medio, 'FG-MATE-3M-OAC-01' (ending in two
 * digits), as the console and the import take them (`codigoDelPar`).
 */
export function codigoOficialDelPar(codigo: string, area: string, nivel: string): boolean {
  if (codigo !== normalizarCodigo(codigo) || !codigoDelPar(codigo, area, nivel)) return false;
  const prefijo = `${area}${nivel} OA `;
  if (codigo.startsWith(prefijo)) return /^\d{2}$/.test(codigo.slice(prefijo.length));
  return nivel.startsWith('NT') ? /^OA \d{2} [A-Z]+ NT$/.test(codigo) : /^FG-[A-Z0-9]+-(3M|4M|3y4)-OAC-\d{2}$/.test(codigo);
}

/** The unit that holds a pair's OAs when no Programa's units were verified; `nivel` may name several levels ('NT1-NT2'). */
export function unidadGeneral(area: string, nivel: string, oas: OACurricular[], otros = false): UnidadCurricular {
  const asignatura = areaPorCodigo.get(area)?.nombre ?? area;
  const curso = nivel
    .split('-')
    .map((n) => nivelPorCodigo.get(n)?.nombre ?? n)
    .join(' y ');
  return {
    codigo: `${area}${nivel} U${otros ? 'X' : '0'}`,
    nombre: `${otros ? 'Otros objetivos' : 'Objetivos'} de ${asignatura} ${curso}`,
    oas,
  };
}

/** One checked file, validated against the catalogue; throws with the file name and the reason. */
function leerPar(archivo: string): ParCurricular & { oas: OACurricular[]; conUnidades: boolean } {
  const falla = (motivo: string): never => {
    throw new Error(`curriculo/${archivo}: ${motivo}`);
  };
  const crudo: unknown = JSON.parse(readFileSync(join(CARPETA, archivo), 'utf8'));
  const resultado = archivoPar.safeParse(crudo);
  if (!resultado.success) return falla(z.prettifyError(resultado.error));
  const par = resultado.data;
  const niveles = par.niveles ?? (par.nivel === undefined ? [] : [par.nivel]);
  const [nivel, ...otrosNiveles] = niveles;
  if (nivel === undefined || (par.nivel !== undefined && par.niveles !== undefined)) return falla('give either nivel or niveles');
  const clave = niveles.join('-');
  if (archivo !== `${par.area}-${clave}.json`) falla(`the file must be named ${par.area}-${clave}.json`);
  const area = areaPorCodigo.get(par.area) ?? falla(`unknown area ${par.area}`);
  for (const n of niveles) if (!area.niveles.includes(n)) falla(`${par.area} is not taught in ${n}`);
  if (new Set(niveles).size !== niveles.length) falla('a level is named twice');
  const porCodigo = new Map<string, OACurricular>();
  for (const oa of par.oas) {
    if (!niveles.every((n) => codigoOficialDelPar(oa.codigo, par.area, n))) falla(`${oa.codigo} is not a code of the pair`);
    if (porCodigo.has(oa.codigo)) falla(`${oa.codigo} appears twice`);
    porCodigo.set(oa.codigo, { codigo: oa.codigo, descripcion: oa.descripcion, fuente: oa.fuente });
  }
  for (const f of par.faltantes) if (porCodigo.has(f.codigo)) falla(`${f.codigo} is both present and missing`);
  const ubicados = new Set<string>();
  const unidades = par.unidades.map((u, i) => ({
    codigo: `${par.area}${clave} U${i + 1}`,
    nombre: u.nombre,
    oas: u.oas.map((codigo) => {
      if (ubicados.has(codigo)) falla(`${codigo} is in two units`);
      ubicados.add(codigo);
      return porCodigo.get(codigo) ?? falla(`unit ${u.nombre} names ${codigo}, which has no statement`);
    }),
  }));
  const sueltos = [...porCodigo.values()].filter((oa) => !ubicados.has(oa.codigo));
  if (sueltos.length > 0) unidades.push(unidadGeneral(par.area, clave, sueltos, unidades.length > 0));
  return {
    area: par.area,
    nivel,
    otrosNiveles,
    unidades,
    bases: par.bases,
    faltantes: par.faltantes,
    oas: [...porCodigo.values()],
    conUnidades: par.unidades.length > 0,
  };
}

/**
 * A pair of curriculum-data.ts extended by its file: the file's OAs that the older units lack go to a
 * last unit of their own, the older units and OAs stay as they are. An OA in both with a different
 * statement is an error, never a silent choice of one text.
 */
export function completarPar(anterior: ParCurricular, oas: OACurricular[], origen: string): ParCurricular {
  const previos = new Map(anterior.unidades.flatMap((u) => u.oas.map((oa) => [oa.codigo, oa] as const)));
  const nuevos = oas.filter((oa) => {
    const previo = previos.get(oa.codigo);
    if (previo && previo.descripcion !== oa.descripcion) {
      throw new Error(
        `${origen}: ${oa.codigo} has a different statement in curriculum-data.ts; settle which one is official before shipping either.\n` +
          `  curriculum-data.ts: ${previo.descripcion}\n  ${origen}: ${oa.descripcion}`,
      );
    }
    return !previo;
  });
  if (nuevos.length === 0) return anterior;
  return { ...anterior, unidades: [...anterior.unidades, unidadGeneral(anterior.area, anterior.nivel, nuevos, true)] };
}

let cache: ParCurricular[] | undefined;

/** Every pair with OAs or a known count, the older seed units first; OA and unit codes are unique across all. */
export function curriculo(): ParCurricular[] {
  if (cache) return cache;
  const pares = new Map<string, ParCurricular>();
  for (const u of data.unidades) {
    const clave = `${u.area}-${u.nivel}`;
    const par = pares.get(clave) ?? { area: u.area, nivel: u.nivel, otrosNiveles: [], unidades: [], bases: null, faltantes: [] };
    par.unidades.push({ codigo: u.codigo, nombre: u.nombre, oas: u.oas.map((oa) => ({ ...oa, fuente: null })) });
    pares.set(clave, par);
  }
  const archivos = readdirSync(CARPETA)
    .filter((f) => f.endsWith('.json'))
    .sort();
  for (const archivo of archivos) {
    const { oas, conUnidades, ...par } = leerPar(archivo);
    const clave = [par.area, par.nivel, ...par.otrosNiveles].join('-');
    const anterior = pares.get(clave);
    if (anterior && conUnidades) throw new Error(`curriculo/${archivo}: ${clave} already has units in curriculum-data.ts`);
    // A file for a pair of curriculum-data.ts brings the Bases' count, what is missing and the OAs the older units lack.
    pares.set(
      clave,
      anterior ? { ...completarPar(anterior, oas, `curriculo/${archivo}`), bases: par.bases, faltantes: par.faltantes } : par,
    );
  }
  const vistos = new Set<string>();
  for (const par of pares.values()) {
    for (const codigo of par.unidades.flatMap((u) => [u.codigo, ...u.oas.map((oa) => oa.codigo)])) {
      if (vistos.has(codigo)) throw new Error(`curriculo: ${codigo} appears twice`);
      vistos.add(codigo);
    }
  }
  cache = [...pares.values()];
  return cache;
}

export interface CoberturaPar {
  area: string;
  asignatura: string;
  nivel: string;
  curso: string;
  presentes: number;
  /** What the Bases give; null when not verified. */
  bases: number | null;
  faltantes: number;
  /** Of `presentes`, those already counted in an earlier level: a shared module or núcleo (decision 0084). */
  repetidos: number;
}

/** Levels the target covers: 1° básico to 2° medio. */
export const NIVELES_META = ['01', '02', '03', '04', '05', '06', '07', '08', '1M', '2M'];

/**
 * Every (asignatura, nivel) taught, in catalogue order, with its OAs present against the Bases'
 * count; a file of several levels counts in each of them (the same OAs are offered in each).
 */
export function coberturaCurricular(): CoberturaPar[] {
  const porPar = new Map<string, ParCurricular[]>();
  for (const par of curriculo()) {
    for (const nivel of [par.nivel, ...par.otrosNiveles]) {
      const clave = `${par.area}-${nivel}`;
      porPar.set(clave, [...(porPar.get(clave) ?? []), par]);
    }
  }
  const contar = (pares: ParCurricular[]) => pares.reduce((t, p) => t + p.unidades.reduce((s, u) => s + u.oas.length, 0), 0);
  return data.areas.flatMap((a) =>
    data.niveles
      .filter((n) => a.niveles.includes(n.codigo))
      .map((n) => {
        const pares = porPar.get(`${a.codigo}-${n.codigo}`) ?? [];
        const conBases = pares.every((p) => p.bases !== null) && pares.length > 0;
        return {
          area: a.codigo,
          asignatura: a.nombre,
          nivel: n.codigo,
          curso: n.nombre,
          presentes: contar(pares),
          bases: conBases ? pares.reduce((t, p) => t + (p.bases?.oas ?? 0), 0) : null,
          faltantes: pares.reduce((t, p) => t + p.faltantes.length, 0),
          repetidos: contar(pares.filter((p) => p.nivel !== n.codigo)),
        };
      }),
  );
}

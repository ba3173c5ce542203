/**
 * The shipped curriculum (issue 30): every checked file loads, each OA it adds names the page it
 * was checked against, every pair with OAs has a unit that holds them, and the coverage that
 * `npm run curriculo -- cobertura` prints cannot fall back below the figure of the last data commit.
 */
import { describe, expect, it } from 'vitest';
import { resumirCobertura } from '../../src/lib/server/cli/curriculo.server.ts';
import {
  coberturaCurricular,
  codigoOficialDelPar,
  completarPar,
  curriculo,
  NIVELES_META,
  unidadGeneral,
} from '../../src/lib/server/db/seed/curriculo.ts';
import * as data from '../../src/lib/server/db/seed/curriculum-data.ts';

/** The figures when the data was last extended; raise them with the data, never lower them. */
const OAS_MINIMOS = 1500;
const PARES_CON_OAS_MINIMOS = 130;
/** Pairs of 1° básico to 2° medio with every OA the Bases give (the target is all 96). */
const PARES_COMPLETOS_MINIMOS = 85;

describe('the shipped curriculum', () => {
  const pares = curriculo();

  it('loads every file, with unique unit and OA codes', () => {
    const codigos = pares.flatMap((p) => p.unidades.flatMap((u) => [u.codigo, ...u.oas.map((oa) => oa.codigo)]));
    expect(new Set(codigos).size).toBe(codigos.length);
  });

  it('gives each OA of a checked file its source page, and every pair with OAs a unit with all of them', () => {
    for (const par of pares) {
      const oas = par.unidades.flatMap((u) => u.oas);
      for (const u of par.unidades) expect(u.oas.length, u.codigo).toBeGreaterThan(0);
      for (const oa of oas) {
        expect(codigoOficialDelPar(oa.codigo, par.area, par.nivel), oa.codigo).toBe(true);
        expect(oa.descripcion.trim().length, oa.codigo).toBeGreaterThan(10);
        // The older seed units (curriculum-data.ts) carry their sources in that file's header.
        if (oa.fuente !== null) expect(oa.fuente, oa.codigo).toMatch(/^https?:\/\//);
      }
      const faltantes = new Set(par.faltantes.map((f) => f.codigo));
      for (const oa of oas) expect(faltantes.has(oa.codigo), `${oa.codigo} is both present and missing`).toBe(false);
    }
  });

  it("takes an OA's code only in an official form of its pair, 3° and 4° medio's Bases 2019 form included", () => {
    for (const [codigo, area, nivel, oficial] of [
      ['MA07 OA 01', 'MA', '07', true],
      ['IN1M OA 16', 'IN', '1M', true],
      ['FG-MATE-3M-OAC-01', 'MA', '3M', true],
      ['FG-LELI-4M-OAC-08', 'LE', '4M', true],
      ['MA07 OA 1', 'MA', '07', false],
      ['ma07 oa 01', 'MA', '07', false],
      ['MA07  OA 01', 'MA', '07', false],
      ['MA08 OA 01', 'MA', '07', false],
      ['FG-MATE-4M-OAC-01', 'MA', '3M', false],
      ['FG-MATE-3M-OAC-1', 'MA', '3M', false],
      ['FG-MATE-3M-OAC-01', 'MA', '07', false],
      // A module of either level (Educación Física y Salud 1) is of both, as published ('3y4', decision 0084).
      ['FG-EFS1-3y4-OAC-01', 'EF', '3M', true],
      ['FG-EFS1-3y4-OAC-01', 'EF', '4M', true],
      ['FG-EFS1-3Y4-OAC-01', 'EF', '3M', false],
      ['FG-EFS1-3y4-OAC-01', 'EF', '2M', false],
      // Educación Parvularia: the núcleo, then NT, for both transition levels.
      ['OA 01 LV NT', 'LV', 'NT1', true],
      ['OA 12 PM NT', 'PM', 'NT2', true],
      ['OA 1 LV NT', 'LV', 'NT1', false],
      ['OA 01 LV NT', 'PM', 'NT1', false],
      ['OA 01 LV NT', 'LV', '01', false],
    ] as const) {
      expect(codigoOficialDelPar(codigo, area, nivel), codigo).toBe(oficial);
    }
  });

  it('keeps every unit and OA of curriculum-data.ts as it is, a file only adding what they lack', () => {
    const porCodigo = new Map(pares.flatMap((p) => p.unidades.map((u) => [u.codigo, u] as const)));
    for (const u of data.unidades) {
      const cargada = porCodigo.get(u.codigo);
      expect(cargada?.nombre, u.codigo).toBe(u.nombre);
      expect(cargada?.oas.map((oa) => [oa.codigo, oa.descripcion])).toEqual(u.oas.map((oa) => [oa.codigo, oa.descripcion]));
    }
  });

  it("adds a file's OAs to a pair of curriculum-data.ts in a last unit, and refuses an OA whose statement differs", () => {
    const oa = (codigo: string, descripcion: string) => ({ codigo, descripcion, fuente: 'https://www.curriculumnacional.cl/x' });
    const anterior = {
      area: 'CN',
      nivel: '06',
      otrosNiveles: [],
      unidades: [
        { codigo: 'CN06 U1', nombre: 'Unidad 1', oas: [{ codigo: 'CN06 OA 01', descripcion: 'Explicar la fotosíntesis.', fuente: null }] },
      ],
      bases: null,
      faltantes: [],
    };
    const completo = completarPar(
      anterior,
      [oa('CN06 OA 01', 'Explicar la fotosíntesis.'), oa('CN06 OA 02', 'Describir las cadenas.')],
      'CN-06.json',
    );
    expect(completo.unidades[0]).toBe(anterior.unidades[0]);
    expect(completo.unidades.slice(1)).toEqual([
      { codigo: 'CN06 UX', nombre: 'Otros objetivos de Ciencias Naturales 6° básico', oas: [oa('CN06 OA 02', 'Describir las cadenas.')] },
    ]);
    expect(completarPar(anterior, [oa('CN06 OA 01', 'Explicar la fotosíntesis.')], 'CN-06.json')).toBe(anterior);
    expect(() => completarPar(anterior, [oa('CN06 OA 01', 'Explicar la fotosíntesis y la respiración.')], 'curriculo/CN-06.json')).toThrow(
      /curriculo\/CN-06\.json: CN06 OA 01 has a different statement in curriculum-data\.ts/,
    );
  });

  it("names a level's single unit so a teacher understands it", () => {
    const oa = { codigo: 'HI05 OA 13', descripcion: 'x', fuente: null };
    expect(unidadGeneral('HI', '05', [oa]).nombre).toBe('Objetivos de Historia, Geografía y Ciencias Sociales 5° básico');
    expect(unidadGeneral('IN', '1M', [oa], true).nombre).toBe('Otros objetivos de Inglés 1° medio');
    expect(unidadGeneral('LV', 'NT1-NT2', [oa]).nombre).toBe(
      'Objetivos de Lenguaje Verbal Primer Nivel de Transición y Segundo Nivel de Transición',
    );
  });

  it('offers a file of several levels in each of them, counting its OAs once (decision 0084)', () => {
    const compartidos = pares.filter((p) => p.otrosNiveles.length > 0);
    // The eight núcleos of the transition tramo, and the modules of Artes, Historia, Educación Física and Ciencias para la Ciudadanía.
    expect(compartidos.map((p) => `${p.area}-${[p.nivel, ...p.otrosNiveles].join('-')}`).sort()).toEqual(
      ['CC', 'CES', 'CM', 'EEN', 'IA', 'LA', 'LV', 'PM']
        .map((a) => `${a}-NT1-NT2`)
        .concat(['AT-3M-4M', 'CPC-3M-4M', 'EF-3M-4M', 'HI-3M-4M'])
        .sort(),
    );
    const ef = pares.find((p) => p.area === 'EF' && p.nivel === '3M');
    expect(ef?.unidades.map((u) => [u.nombre, u.oas.length])).toEqual([
      ['Educación Física y Salud 1', 5],
      ['Educación Física y Salud 2', 5],
    ]);
    const filas = coberturaCurricular();
    const fila = (area: string, nivel: string) => filas.find((f) => f.area === area && f.nivel === nivel);
    expect([fila('EF', '3M'), fila('EF', '4M')].map((f) => [f?.presentes, f?.bases, f?.repetidos])).toEqual([
      [10, 10, 0],
      [10, 10, 10],
    ]);
    const unaVez = pares.reduce((t, p) => t + p.unidades.reduce((s, u) => s + u.oas.length, 0), 0);
    expect(resumirCobertura(filas).presentes).toBe(unaVez);
  });

  it('lists every asignatura and level taught, and the coverage does not fall back', () => {
    const filas = coberturaCurricular();
    expect(filas.filter((f) => NIVELES_META.includes(f.nivel))).toHaveLength(96);
    const resumen = resumirCobertura(filas);
    expect(resumen.presentes).toBeGreaterThanOrEqual(OAS_MINIMOS);
    expect(filas.filter((f) => f.presentes > 0).length).toBeGreaterThanOrEqual(PARES_CON_OAS_MINIMOS);
    expect(resumen.paresMetaCompletos).toBeGreaterThanOrEqual(PARES_COMPLETOS_MINIMOS);
    for (const f of filas) if (f.bases !== null) expect(f.presentes, `${f.area}-${f.nivel}`).toBeLessThanOrEqual(f.bases);
  });
});

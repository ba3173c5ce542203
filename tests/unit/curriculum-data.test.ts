import { describe, expect, it } from 'vitest';
import { areas, colegios, metodologias, niveles, tiposMaterial, unidades } from '../../src/lib/server/db/seed/curriculum-data.ts';

const OA_CODE = /^[A-Z]{2}(0[1-8]|[1-4]M) OA \d{2}$/;

function expectUniqueNonEmpty(values: readonly string[]): void {
  for (const v of values) expect(v.trim().length).toBeGreaterThan(0);
  expect(new Set(values).size).toBe(values.length);
}

describe('curriculum seed data', () => {
  it('has 14 levels with unique codes and orden 1..14', () => {
    expect(niveles).toHaveLength(14);
    expectUniqueNonEmpty(niveles.map((n) => n.codigo));
    expect(niveles.map((n) => n.orden)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    for (const n of niveles) {
      expect(n.nombre.trim()).not.toBe('');
      expect(n.ciclo.trim()).not.toBe('');
    }
  });

  it('has unique area codes whose levels exist', () => {
    expectUniqueNonEmpty(areas.map((a) => a.codigo));
    const levelCodes = new Set(niveles.map((n) => n.codigo));
    for (const a of areas) {
      expect(a.nombre.trim()).not.toBe('');
      expect(a.niveles.length).toBeGreaterThan(0);
      for (const lv of a.niveles) expect(levelCodes.has(lv), `${a.codigo} -> ${lv}`).toBe(true);
    }
  });

  it('links every unit to an existing area taught at an existing level', () => {
    expectUniqueNonEmpty(unidades.map((u) => u.codigo));
    const levelCodes = new Set(niveles.map((n) => n.codigo));
    for (const u of unidades) {
      expect(u.nombre.trim()).not.toBe('');
      expect(levelCodes.has(u.nivel), `${u.codigo}: nivel ${u.nivel}`).toBe(true);
      const area = areas.find((a) => a.codigo === u.area);
      expect(area, `${u.codigo}: area ${u.area}`).toBeDefined();
      expect(area?.niveles.includes(u.nivel), `${u.codigo}: ${u.area} not taught at ${u.nivel}`).toBe(true);
      expect(u.oas.length).toBeGreaterThan(0);
    }
  });

  it('uses official OA codes with the unit prefix and non-empty descriptions', () => {
    for (const u of unidades) {
      for (const oa of u.oas) {
        expect(oa.codigo).toMatch(OA_CODE);
        expect(oa.codigo.startsWith(`${u.area}${u.nivel} OA `), `${oa.codigo} in ${u.codigo}`).toBe(true);
        expect(oa.descripcion.trim().length).toBeGreaterThan(10);
      }
    }
  });

  it('has globally unique OA codes', () => {
    const codes = unidades.flatMap((u) => u.oas.map((oa) => oa.codigo));
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('covers Matemática and Ciencias Naturales in at least 5 levels each', () => {
    for (const area of ['MA', 'CN']) {
      const levels = new Set(unidades.filter((u) => u.area === area).map((u) => u.nivel));
      expect(levels.size, area).toBeGreaterThanOrEqual(5);
    }
  });

  it('has catalogues of methodologies, material types and schools', () => {
    expectUniqueNonEmpty(metodologias);
    expect(metodologias.length).toBeGreaterThanOrEqual(8);
    expect(metodologias.length).toBeLessThanOrEqual(12);
    expectUniqueNonEmpty(tiposMaterial);
    expect(tiposMaterial.length).toBeGreaterThanOrEqual(8);
    expect(tiposMaterial.length).toBeLessThanOrEqual(10);
    expectUniqueNonEmpty(colegios);
    expect(colegios.length).toBeGreaterThanOrEqual(6);
    expect(colegios.length).toBeLessThanOrEqual(10);
  });
});

import { describe, expect, it } from 'vitest';
import { aCsv, type Estadisticas, etiquetaMes, etiquetaSemana, tablaDe } from '../../src/pages/admin/_componentes/estadisticas';
import { AREA, escala, grupos, MARGEN, nivelCalor } from '../../src/pages/admin/_componentes/graficos';

describe('escala', () => {
  it('rounds the axis up to four steps of 1, 2 or 5 × 10ⁿ', () => {
    expect(escala(0)).toEqual({ tope: 4, marcas: [0, 1, 2, 3, 4] });
    expect(escala(4).tope).toBe(4);
    expect(escala(5).tope).toBe(8);
    expect(escala(17).tope).toBe(20);
    expect(escala(41).tope).toBe(80);
    expect(escala(1234)).toEqual({ tope: 2000, marcas: [0, 500, 1000, 1500, 2000] });
  });
});

describe('grupos', () => {
  it('stands each bar on the base line, as tall as its share of the axis', () => {
    const [a, b] = grupos(
      ['ene', 'feb'],
      [
        [0, 2],
        [4, 1],
      ],
      4,
    );
    const base = MARGEN.arriba + AREA.alto;
    expect(a?.barras.map((x) => x.alto)).toEqual([0, AREA.alto / 2]);
    expect(b?.barras[0]).toMatchObject({ y: MARGEN.arriba, alto: AREA.alto, valor: 4, serie: 0 });
    for (const barra of [...(a?.barras ?? []), ...(b?.barras ?? [])]) expect(barra.y + barra.alto).toBeCloseTo(base);
    expect((b?.centro ?? 0) - (a?.centro ?? 0)).toBeCloseTo(AREA.ancho / 2);
  });
});

describe('nivelCalor', () => {
  it('is 0 only for none, and 5 for the largest count', () => {
    expect(nivelCalor(0, 10)).toBe(0);
    expect(nivelCalor(1, 100)).toBe(1);
    expect(nivelCalor(10, 10)).toBe(5);
    expect(nivelCalor(0, 0)).toBe(0);
  });
});

const estadisticas: Estadisticas = {
  activos_por_semana: [{ semana: '2026-11-16', docentes: 3 }],
  subidas_por_mes: [{ mes: '2026-11', capsulas: 1, materiales: 2, manuales: 0 }],
  visitas_por_seccion: [{ seccion: 'foro', visitas: 9 }],
  mas_vistos: [{ tipo: 'manual', id: 4, titulo: '=HYPERLINK("x"); "Guía"', visitas: 7, href: '/manuales/4' }],
  materiales_por_area_nivel: {
    areas: ['Matemática', 'Música'],
    niveles: ['1° básico'],
    celdas: [{ area: 'Música', nivel: '1° básico', total: 2 }],
  },
};

describe('the statistics as tables and CSV', () => {
  it('names the columns in Spanish and fills missing heat-map cells with 0', () => {
    expect(tablaDe('visitas', estadisticas)).toEqual({
      titulo: 'Visitas por sección',
      columnas: ['Sección', 'Visitas'],
      filas: [['Foro', 9]],
    });
    expect(tablaDe('materiales', estadisticas).filas).toEqual([
      ['Matemática', 0],
      ['Música', 2],
    ]);
  });

  it("writes ';'-separated CSV with a BOM, quoting and defusing what a spreadsheet would run", () => {
    expect(aCsv(tablaDe('subidas', estadisticas))).toBe('\uFEFFMes;Cápsulas;Materiales;Manuales\r\n2026-11;1;2;0\r\n');
    const fila = aCsv(tablaDe('mas-vistos', estadisticas)).split('\r\n')[1];
    expect(fila).toBe(`1;"'=HYPERLINK(""x""); ""Guía""";Manual;7`);
  });

  it('labels weeks and months in es-CL', () => {
    expect(etiquetaSemana('2026-11-16')).toBe('16 nov');
    expect(etiquetaMes('2026-11')).toBe('nov 2026');
  });
});

/**
 * The geometry of the statistics' SVG charts (issue 16), drawn on the server: a round top for the
 * value axis and where each bar goes. No chart library reaches the browser.
 */

export const ANCHO = 640;
export const ALTO = 260;
export const MARGEN = { arriba: 16, derecha: 8, abajo: 48, izquierda: 44 } as const;
export const AREA = { ancho: ANCHO - MARGEN.izquierda - MARGEN.derecha, alto: ALTO - MARGEN.arriba - MARGEN.abajo };

/** The axis top: the smallest of 4, 8, 20, 40, 80… (four steps of 1, 2 or 5 × 10ⁿ) that holds the maximum. */
export function escala(maximo: number): { tope: number; marcas: number[] } {
  let paso = 1;
  for (let potencia = 1; paso * 4 < maximo; potencia *= 10) {
    paso = [1, 2, 5, 10].map((m) => m * potencia).find((p) => p * 4 >= maximo) ?? potencia * 10;
  }
  return { tope: paso * 4, marcas: [0, 1, 2, 3, 4].map((i) => i * paso) };
}

/** The y of a value on an axis that reaches `tope`. */
export const yDe = (valor: number, tope: number) => MARGEN.arriba + AREA.alto - (valor / tope) * AREA.alto;

export interface Barra {
  x: number;
  y: number;
  ancho: number;
  alto: number;
  valor: number;
  serie: number;
}

export interface Grupo {
  etiqueta: string;
  /** The centre of the group, for its label. */
  centro: number;
  barras: Barra[];
}

/** Groups of bars (one value per series), side by side; a single series gives plain bars. */
export function grupos(etiquetas: string[], valores: number[][], tope: number): Grupo[] {
  const anchoGrupo = AREA.ancho / Math.max(1, etiquetas.length);
  const series = Math.max(1, valores[0]?.length ?? 1);
  const anchoBarra = (anchoGrupo * 0.72) / series;
  return etiquetas.map((etiqueta, i) => {
    const inicio = MARGEN.izquierda + i * anchoGrupo + anchoGrupo * 0.14;
    return {
      etiqueta,
      centro: MARGEN.izquierda + (i + 0.5) * anchoGrupo,
      barras: (valores[i] ?? []).map((valor, s) => {
        const y = yDe(valor, tope);
        return { x: inicio + s * anchoBarra, y, ancho: Math.max(1, anchoBarra - 1), alto: MARGEN.arriba + AREA.alto - y, valor, serie: s };
      }),
    };
  });
}

/** 0 to 5: how dark a heat-map cell is, relative to the largest count (0 only for none). */
export const nivelCalor = (total: number, maximo: number) => (total <= 0 || maximo <= 0 ? 0 : Math.max(1, Math.ceil((total / maximo) * 5)));

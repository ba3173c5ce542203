/**
 * What each quality of the player costs, for the quality menu ('234p · ~1,9 MB/min', issue 20),
 * and the data saver's ceiling among the rungs.
 */

/** The data saver's ceiling: no rung taller than this unless the person picks one. */
export const ALTO_AHORRO = 360;

const DECIMAL = new Intl.NumberFormat('es-CL', { maximumFractionDigits: 1 });
const ENTERO = new Intl.NumberFormat('es-CL', { maximumFractionDigits: 0 });

/**
 * '~1,9 MB/min' for a bit rate in bits per second (megabytes of 10^6 bytes, as phone plans count
 * them): one decimal under 10 MB, none from there; never less than 0,1. Null without a rate.
 */
export function costePorMinuto(bitsPorSegundo: number | undefined): string | null {
  if (!bitsPorSegundo || !Number.isFinite(bitsPorSegundo) || bitsPorSegundo <= 0) return null;
  const megas = (bitsPorSegundo * 60) / 8 / 1e6;
  const texto = megas < 10 ? DECIMAL.format(Math.max(megas, 0.1)) : ENTERO.format(megas);
  return `~${texto} MB/min`;
}

/** A menu item's text with the rung's cost after it, when known. */
export function conCoste(texto: string, bitsPorSegundo: number | undefined): string {
  const coste = costePorMinuto(bitsPorSegundo);
  return coste ? `${texto} · ${coste}` : texto;
}

/**
 * The index of the tallest rung at or below `alto` (the best bit rate among equals); the lowest
 * rung when every one is taller; -1 without rungs.
 */
export function nivelTope(niveles: readonly { height: number; bitrate: number }[], alto: number): number {
  let elegido = -1;
  let menor = -1;
  niveles.forEach((nivel, i) => {
    const actual = niveles[elegido];
    if (
      nivel.height <= alto &&
      (!actual || nivel.height > actual.height || (nivel.height === actual.height && nivel.bitrate > actual.bitrate))
    ) {
      elegido = i;
    }
    const masBajo = niveles[menor];
    if (!masBajo || nivel.bitrate < masBajo.bitrate) menor = i;
  });
  return elegido === -1 ? menor : elegido;
}

/**
 * The fuzz suite's only source of chance: a seeded PRNG (mulberry32), so a run is replayed with
 * `FUZZ_SEED=<the printed seed>`. Nothing in the suite calls Math.random.
 */
export interface Azar {
  readonly semilla: number;
  /** A float in [0, 1). */
  siguiente(): number;
  /** An integer in [min, max]. */
  entero(min: number, max: number): number;
  uno<T>(items: readonly T[]): T;
  /** `n` distinct items (all of them when there are fewer). */
  algunos<T>(items: readonly T[], n: number): T[];
  barajar<T>(items: readonly T[]): T[];
}

export function crearAzar(semilla: number): Azar {
  let estado = semilla >>> 0;
  const siguiente = () => {
    estado = (estado + 0x6d2b79f5) >>> 0;
    let t = estado;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const entero = (min: number, max: number) => min + Math.floor(siguiente() * (max - min + 1));
  const barajar = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = entero(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  };
  return {
    semilla: semilla >>> 0,
    siguiente,
    entero,
    uno: (items) => {
      if (items.length === 0) throw new Error('nothing to choose from');
      return items[entero(0, items.length - 1)] as (typeof items)[number];
    },
    algunos: (items, n) => barajar(items).slice(0, n),
    barajar,
  };
}

/** FUZZ_SEED when given (decimal), else a new one from the clock. */
export function semillaDelEntorno(env: NodeJS.ProcessEnv = process.env): number {
  const dada = env.FUZZ_SEED?.trim();
  if (dada) {
    const n = Number(dada);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
      throw new Error(`FUZZ_SEED must be an integer from 0 to 4294967295, got '${dada}'`);
    return n;
  }
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

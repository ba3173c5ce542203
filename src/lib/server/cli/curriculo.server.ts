/**
 * `npm run curriculo -- cobertura [--json] [--faltantes]` (issue 30): per asignatura and level, the
 * OAs the product ships against the count the Bases Curriculares give, and the totals. It reads
 * the shipped data (db/seed/curriculo), so it needs neither the server nor the database; what a
 * network changed in the console is on /admin/curriculo.
 */
import { type CoberturaPar, coberturaCurricular, curriculo, NIVELES_META } from '../db/seed/curriculo.ts';

export interface ResumenCobertura {
  pares: CoberturaPar[];
  /** OAs shipped, every level. */
  presentes: number;
  /** Pairs of 1° básico to 2° medio, and how many of them have every OA the Bases give. */
  paresMeta: number;
  paresMetaCompletos: number;
  /** OAs of 1° básico to 2° medio shipped, and what the Bases give where the count is known. */
  presentesMeta: number;
  basesMetaConocidas: number;
  paresMetaSinConteo: number;
}

export function resumirCobertura(pares = coberturaCurricular()): ResumenCobertura {
  const meta = pares.filter((p) => NIVELES_META.includes(p.nivel));
  return {
    pares,
    presentes: pares.reduce((t, p) => t + p.presentes - p.repetidos, 0),
    paresMeta: meta.length,
    paresMetaCompletos: meta.filter((p) => p.bases !== null && p.presentes >= p.bases).length,
    presentesMeta: meta.reduce((t, p) => t + p.presentes, 0),
    basesMetaConocidas: meta.reduce((t, p) => t + (p.bases ?? 0), 0),
    paresMetaSinConteo: meta.filter((p) => p.bases === null).length,
  };
}

const ancho = (texto: string, n: number) => (texto.length > n ? `${texto.slice(0, n - 1)}…` : texto.padEnd(n));

function imprimir(r: ResumenCobertura, conFaltantes: boolean): void {
  const lineas = [`${ancho('Asignatura', 46)} ${ancho('Nivel', 18)} ${'OAs'.padStart(5)} ${'Bases'.padStart(6)}  Estado`];
  for (const p of r.pares) {
    const estado =
      p.bases === null
        ? p.presentes > 0
          ? 'sin conteo verificado'
          : 'sin datos'
        : p.presentes >= p.bases
          ? 'completo'
          : `faltan ${p.bases - p.presentes}`;
    const compartidos = p.repetidos > 0 ? ` (${p.repetidos} compartidos con el nivel anterior)` : '';
    lineas.push(
      `${ancho(p.asignatura, 46)} ${ancho(p.curso, 18)} ${String(p.presentes).padStart(5)} ${String(p.bases ?? '?').padStart(6)}  ${estado}${compartidos}`,
    );
  }
  lineas.push(
    '',
    `OAs en los datos: ${r.presentes}.`,
    `1° básico a 2° medio: ${r.presentesMeta} OAs; ${r.paresMetaCompletos} de ${r.paresMeta} pares completos; ` +
      `las Bases dan ${r.basesMetaConocidas} OAs en los pares con conteo verificado (${r.paresMetaSinConteo} pares sin conteo).`,
  );
  if (conFaltantes) {
    lineas.push('', 'OAs sin texto oficial verificado:');
    for (const par of curriculo()) for (const f of par.faltantes) lineas.push(`  ${f.codigo}: ${f.motivo}`);
  }
  console.log(lineas.join('\n'));
}

function run(args: string[]): number {
  const [orden, ...opciones] = args;
  if (orden !== 'cobertura') {
    console.error('Uso: npm run curriculo -- cobertura [--json] [--faltantes]');
    return 2;
  }
  const resumen = resumirCobertura();
  if (opciones.includes('--json')) console.log(JSON.stringify(resumen, null, 2));
  else imprimir(resumen, opciones.includes('--faltantes'));
  return 0;
}

if (import.meta.main) process.exitCode = run(process.argv.slice(2));

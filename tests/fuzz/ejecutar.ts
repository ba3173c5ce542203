/**
 * Runs the cases against the real server with a fixed number of requests in flight. When the
 * server process dies, the cases in flight at that moment are recorded as the suspects, the
 * server is started again on the same data directory (tokens and data survive) and the run goes
 * on, so one run finds every kind of crash rather than only the first.
 */
import type { Caso } from './casos.ts';
import { enviar, type Respuesta } from './enviar.ts';
import { type Falla, verificar } from './verificar.ts';

export interface Servidor {
  url: string;
  vivo(): boolean;
  /** Resolves when this process exits. */
  salida: Promise<unknown>;
}

export interface Hallazgo {
  caso: Caso;
  falla: Falla;
  respuesta?: Respuesta;
}

export interface Resultado {
  enviados: number;
  porEstado: Map<number, number>;
  hallazgos: Hallazgo[];
  /** Each crash with the cases in flight when it happened (one of them is the cause). */
  caidas: Caso[][];
  segundos: number;
}

export async function ejecutar(
  casos: readonly Caso[],
  opciones: { concurrencia: number; inicial: Servidor; reiniciar: () => Promise<Servidor> },
): Promise<Resultado> {
  const inicio = performance.now();
  const resultado: Resultado = { enviados: 0, porEstado: new Map(), hallazgos: [], caidas: [], segundos: 0 };
  const enVuelo = new Set<Caso>();
  let servidor = opciones.inicial;
  let listo: Promise<void> = Promise.resolve();

  let terminado = false;
  const vigilar = (s: Servidor) => {
    void s.salida.then(() => {
      if (terminado) return;
      resultado.caidas.push([...enVuelo]);
      listo = opciones.reiniciar().then((nuevo) => {
        servidor = nuevo;
        vigilar(nuevo);
      });
    });
  };
  vigilar(servidor);

  let siguiente = 0;
  const trabajador = async () => {
    for (;;) {
      const caso = casos[siguiente++];
      if (!caso) return;
      await listo;
      enVuelo.add(caso);
      const usado = servidor;
      const respuesta = await enviar(new URL(usado.url), caso);
      enVuelo.delete(caso);
      resultado.enviados++;
      resultado.porEstado.set(respuesta.estado, (resultado.porEstado.get(respuesta.estado) ?? 0) + 1);
      // A connection reset by a dying process is the crash's doing, recorded as such: its exit
      // event may come a moment after the reset.
      if (respuesta.estado === 0 && !(await sigueVivo(usado))) {
        const sospechosos = resultado.caidas.at(-1);
        if (sospechosos && !sospechosos.includes(caso)) sospechosos.push(caso);
        continue;
      }
      for (const falla of verificar(caso, respuesta)) resultado.hallazgos.push({ caso, falla, respuesta });
    }
  };
  await Promise.all(Array.from({ length: opciones.concurrencia }, trabajador));
  await listo;
  terminado = true;
  resultado.segundos = (performance.now() - inicio) / 1000;
  return resultado;
}

async function sigueVivo(servidor: Servidor): Promise<boolean> {
  await new Promise((r) => setTimeout(r, 300));
  return servidor.vivo();
}

/** One line per kind of failure (operation, class of case, failure), with a minimal example. */
export function agrupar(hallazgos: readonly Hallazgo[]): string[] {
  const grupos = new Map<string, { n: number; ejemplo: Hallazgo }>();
  for (const h of hallazgos) {
    // Lost answers come from the connection, not from what was sent: one group per reason.
    const clave = h.falla.tipo === 'sin-respuesta' ? `sin-respuesta (${h.falla.detalle})` : `${h.falla.tipo} ${h.caso.op} ${h.caso.clase}`;
    const g = grupos.get(clave);
    if (g) g.n++;
    else grupos.set(clave, { n: 1, ejemplo: h });
  }
  return [...grupos.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([clave, { n, ejemplo }]) =>
        `${clave} ×${n}\n    ${describir(ejemplo.caso)}\n    → ${ejemplo.falla.detalle.replace(/\s+/g, ' ').slice(0, 240)}`,
    );
}

/** A case in a line: role, method, path and the start of its body. */
export function describir(caso: Caso): string {
  const tipo = caso.cabeceras['content-type'] ? ` [${caso.cabeceras['content-type']}]` : '';
  const cuerpo = caso.cuerpo
    ? ` ${JSON.stringify(caso.cuerpo.subarray(0, 160).toString('latin1'))}${caso.cuerpo.length > 160 ? `… (${caso.cuerpo.length} B)` : ''}`
    : '';
  const corte = caso.corte
    ? ` cut after ${caso.corte.bytes} B (${caso.corte.modo})`
    : caso.declarado
      ? ` declared ${caso.declarado} B`
      : '';
  return `${caso.rol}: ${caso.metodo} ${caso.ruta.slice(0, 160)}${tipo}${cuerpo}${corte}`;
}

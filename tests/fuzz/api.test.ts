/**
 * Thousands of requests generated from openapi.yaml against the real built
 * server, as anonymous, teacher and admin. No answer is a 5xx, every error under /api and /auth
 * is the contract's Spanish error shape, the process never dies, and it is healthy at the end.
 * `FUZZ_SEED=<n>` replays a run; the seed is printed, and so is where the findings were written.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, removeDir, startServer } from '../support/server.ts';
import { crearAzar, semillaDelEntorno } from './azar.ts';
import { type Caso, casosDe, casosSinRuta, type Mundo } from './casos.ts';
import { operaciones } from './contrato.ts';
import { agrupar, describir, ejecutar, type Resultado, type Servidor } from './ejecutar.ts';
import { preparar } from './preparar.ts';

const CONCURRENCIA = 8;
const MINIMO = 5000;
/** Short body timeouts so that an abandoned upload frees its connection quickly. */
const ENTORNO = { REQUEST_IDLE_SECONDS: '3', REQUEST_TIMEOUT_SECONDS: '10', LOG_LEVEL: 'warn' };
const MORTAL = /uncaught exception|unhandled rejection/i;

const semilla = semillaDelEntorno();
let server: RunningServer;
let dataDir = '';
const registros: string[] = [];
let mundo: Mundo;

async function arrancar(): Promise<Servidor> {
  server = await startServer({ ...(dataDir ? { dataDir } : {}), env: ENTORNO });
  dataDir = server.dataDir;
  const proceso = server.process;
  const propio = server;
  return {
    url: server.url,
    vivo: () => proceso.exitCode === null && proceso.signalCode === null,
    salida: new Promise((resolve) => proceso.once('exit', () => resolve(registros.push(propio.output())))),
  };
}

let inicial: Servidor;

beforeAll(async () => {
  inicial = await arrancar();
  mundo = await preparar(server);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (dataDir) removeDir(dataDir);
});

function generar(): Caso[] {
  const azar = crearAzar(semilla);
  const ops = operaciones();
  const casos = ops.flatMap((op) => mundo.actores.flatMap((actor) => casosDe(op, actor, mundo, azar)));
  const plantillas = [...new Set(ops.map((o) => o.plantilla))];
  casos.push(...mundo.actores.flatMap((actor) => casosSinRuta(plantillas, actor, azar)));
  return azar.barajar(casos);
}

function resumen(r: Resultado): string {
  const estados = [...r.porEstado.entries()]
    .sort(([a], [b]) => a - b)
    .map(([estado, n]) => `${estado || 'sin respuesta'}: ${n}`)
    .join(', ');
  return `fuzz (semilla ${semilla}): ${r.enviados} solicitudes en ${r.segundos.toFixed(1)} s; ${estados}; ${r.hallazgos.length} hallazgos, ${r.caidas.length} caídas`;
}

it('ninguna solicitud generada desde openapi.yaml tumba el servidor ni recibe un error fuera del contrato', async () => {
  const casos = generar();
  expect(casos.length).toBeGreaterThanOrEqual(MINIMO);
  const sinCasos = operaciones().filter((op) => !casos.some((c) => c.op === op.id));
  expect(
    sinCasos.map((op) => op.id),
    'every operation of openapi.yaml is fuzzed',
  ).toEqual([]);
  const resultado = await ejecutar(casos, { concurrencia: CONCURRENCIA, inicial, reiniciar: arrancar });
  process.stdout.write(`\n${resumen(resultado)}\n`);

  const salud = await fetch(`${server.url}/healthz`);
  const log = [...registros, server.output()].join('\n');
  const mortales = log.split('\n').filter((l) => MORTAL.test(l));
  const informe = [
    resumen(resultado),
    ...resultado.caidas.map((enVuelo, i) => `caída ${i + 1}, en vuelo:\n${enVuelo.map((c) => `    ${describir(c)}`).join('\n')}`),
    ...agrupar(resultado.hallazgos),
    ...mortales.map((l) => `log: ${l.slice(0, 400)}`),
  ].join('\n');
  const archivo = path.join(os.tmpdir(), `ed-fuzz-${semilla}.txt`);
  writeFileSync(archivo, `${informe}\n`);
  if (resultado.hallazgos.length || resultado.caidas.length || mortales.length) process.stdout.write(`informe: ${archivo}\n`);

  expect(resultado.enviados).toBeGreaterThanOrEqual(MINIMO);
  expect(resultado.caidas, informe).toEqual([]);
  expect(mortales, informe).toEqual([]);
  expect(agrupar(resultado.hallazgos), informe).toEqual([]);
  expect(server.process.exitCode, 'the server is still running').toBeNull();
  expect(salud.status, 'GET /healthz at the end').toBe(200);
}, 300_000);

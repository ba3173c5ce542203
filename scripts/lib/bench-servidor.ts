/**
 * Issue 15's server figures for `npm run bench` (items 4 and 5):
 *
 * - `benchServidor`: throughput and latency at 20 connections (autocannon) of a static page
 *   (/ingresar/, the reference), a signed-in page rendered on request (/capsulas/ with the session
 *   cookies), a list call (GET /api/capsulas/ with Bearer) and the signed-in home (/, issue 21:
 *   its blocks and counts), one after another against the same server process, on the embedded
 *   database and on PostgreSQL, side by side;
 * - `benchMemoria`: the server's RSS over a mixed load held for minutes (10 by default), and
 *   after it, on a server of its own.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { apiClient, type Session, signIn } from '../../tests/support/client.ts';
import { multipart } from '../../tests/support/form.ts';
import { ADMIN } from '../../tests/support/server.ts';
import { video } from '../../tests/support/video.ts';
import { withServer } from './api.ts';
import { percentile } from './stats.ts';
import { formatTable } from './table.ts';

export const CONNECTIONS = 20;

export interface Carga {
  path: string;
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  /** Answers other than 2xx (a 304 would count: none of these requests is conditional). */
  fallidas: number;
  total: number;
}

/** Capsules uploaded (and processed) so the list and the page show a full first page (12 cards). */
export const CAPSULAS = 12;
const PROCESSING_MS = 240_000;

/** Uploads `n` short capsules as the admin and waits until every one is processed. */
export async function sembrarCapsulas(url: string, admin: Session, n = CAPSULAS): Promise<number[]> {
  const api = apiClient(url, admin.access);
  const { data: areas } = await api.GET('/api/curriculum_escolar/areas/');
  const { data: metodologias } = await api.GET('/api/metodologias/');
  const area = areas?.[0];
  const metodologia = metodologias?.[0];
  if (!area || !metodologia) throw new Error('No areas or methodologies to upload capsules with.');
  const { data: niveles } = await api.GET('/api/curriculum_escolar/niveles/', { params: { query: { area: area.id } } });
  const nivel = niveles?.[0];
  if (!nivel) throw new Error(`No levels for area ${area.id}.`);
  const datos = await video({ seconds: 1, width: 160, height: 90 });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const { data, error, response } = await api.POST('/api/capsulas/', {
      body: {
        titulo: `Cápsula de carga ${i + 1}`,
        descripcion: 'Una cápsula para medir el servidor con **texto** de ejemplo.',
        id_area: area.id,
        extension: 'mp4',
        id_metodologia: metodologia.id,
        id_nivel: nivel.codigo,
        archivo: 'carga.mp4',
      },
      bodySerializer: multipart({ data: datos, name: 'carga.mp4', type: 'video/mp4' }),
    });
    if (!data) throw new Error(`POST /api/capsulas/ answered ${response.status}: ${JSON.stringify(error)}`);
    ids.push(data.id);
  }
  const limite = Date.now() + PROCESSING_MS;
  for (;;) {
    const { data } = await api.GET('/api/capsulas/procesando');
    const pendientes = (data?.capsulas ?? []).filter((c) => ids.includes(c.id));
    if (pendientes.some((c) => c.estado === 'error')) throw new Error('A load capsule could not be processed.');
    if (pendientes.length === 0) return ids;
    if (Date.now() > limite) throw new Error(`${pendientes.length} load capsules still processing after ${PROCESSING_MS / 1000} s.`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Runs autocannon; `onResponse` gets each response's latency in ms. */
function correr(options: autocannon.Options, onResponse?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) instance.on('response', (_client, _status, _bytes, ms) => onResponse(ms));
  });
}

/** One autocannon run; latencies come from every response (autocannon's own table has no p95). */
export async function cargar(
  url: string,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  options: { cadaVezOtra?: boolean } = {},
): Promise<Carga> {
  const samples: number[] = [];
  // `cadaVezOtra`: a parameter the page ignores, new on every request, so no answer is sent from
  // the server's page cache (http/paginas.server.ts) and every one is rendered.
  let n = 0;
  const requests = options.cadaVezOtra
    ? [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `${path}?medida=${++n}` }) }]
    : undefined;
  const result = await correr({ url: `${url}${path}`, connections: CONNECTIONS, duration: seconds, headers, requests }, (ms) =>
    samples.push(ms),
  );
  return {
    path,
    rps: result.requests.total / seconds,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    errors: result.errors + result.timeouts,
    fallidas: result.non2xx,
    total: result.requests.total,
  };
}

/** A browser's headers: brotli accepted, so pages are compressed as they would be. */
const NAVEGADOR = { 'accept-encoding': 'br, gzip', accept: 'text/html,application/json' };

/**
 * The three measures of issue 15 item 4 and the home of issue 21, one after another against the
 * same server; then the page again with every request a new address, rendered each time (the
 * cost of a page nobody has asked for yet, outside the target).
 */
export async function medirServidor(url: string, session: Session, seconds: number): Promise<Carga[]> {
  // Warm-up: the first renders compile templates and fill caches the way a running server has them.
  await cargar(url, '/capsulas/', { ...NAVEGADOR, cookie: session.cookie }, 2);
  return [
    await cargar(url, '/ingresar/', NAVEGADOR, seconds),
    await cargar(url, '/capsulas/', { ...NAVEGADOR, cookie: session.cookie }, seconds),
    await cargar(url, '/api/capsulas/', { ...NAVEGADOR, authorization: `Bearer ${session.access}` }, seconds),
    await cargar(url, '/', { ...NAVEGADOR, cookie: session.cookie }, seconds),
    await cargar(url, '/capsulas/', { ...NAVEGADOR, cookie: session.cookie }, seconds, { cadaVezOtra: true }),
  ];
}

/** A process's memory from /proc/<pid>/status in MB (VmRSS: resident now, VmHWM: its peak); NaN when unreadable. */
export function rssMb(pid: number | undefined, campo: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${campo}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

export interface Resistencia {
  minutes: number;
  idle: number;
  /** RSS sampled every few seconds under load. */
  samples: number[];
  /** Highest RSS in the first and in the second half of the load. */
  firstHalfPeak: number;
  secondHalfPeak: number;
  end: number;
  /** RSS some seconds after the load stopped. */
  after: number;
  requests: number;
  fallidas: number;
  errors: number;
}

const SAMPLE_MS = 5_000;
const SETTLE_MS = 30_000;

/**
 * Item 5: a mixed load (static pages and assets, signed-in pages, list and detail calls, the
 * catalogues) at 20 connections for `minutes`, the server's RSS sampled throughout; then idle.
 * RSS has settled when the second half's peak is within 10 % of the first half's.
 */
export async function resistencia(
  url: string,
  session: Session,
  pid: number | undefined,
  minutes: number,
  capsulaId: number,
): Promise<Resistencia> {
  const idle = rssMb(pid);
  const page = { ...NAVEGADOR, cookie: session.cookie };
  const api = { ...NAVEGADOR, authorization: `Bearer ${session.access}` };
  const requests = [
    { path: '/ingresar/', headers: NAVEGADOR },
    { path: '/capsulas/', headers: page },
    { path: '/api/capsulas/', headers: api },
    { path: `/capsulas/${capsulaId}`, headers: page },
    { path: `/api/capsulas/${capsulaId}/`, headers: api },
    { path: '/manuales/', headers: page },
    { path: '/biblioteca-docente/', headers: page },
    { path: '/comunidad/', headers: page },
    { path: '/api/curriculum_escolar/areas/', headers: api },
    { path: '/api/colegios/', headers: api },
    { path: '/perfil/', headers: page },
    { path: `/perfil/${session.usuarioId}`, headers: page },
    { path: '/foro/', headers: page },
    { path: '/', headers: page },
  ].map((r) => ({ method: 'GET' as const, ...r }));
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(pid)), SAMPLE_MS);
  const result = await correr({ url, connections: CONNECTIONS, duration: minutes * 60, requests });
  clearInterval(sampler);
  const end = rssMb(pid);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const half = Math.floor(samples.length / 2);
  return {
    minutes,
    idle,
    samples,
    firstHalfPeak: Math.max(...samples.slice(0, half)),
    secondHalfPeak: Math.max(...samples.slice(half)),
    end,
    after: rssMb(pid),
    requests: result.requests.total,
    fallidas: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Issue 15 item 4: each rendered measure at least this share of /ingresar/'s throughput, p95 under P95_MS. */
export const TARGET_SHARE = 0.15;
export const TARGET_P95_MS = 100;
const SECONDS = 10;

/** Where the PostgreSQL figures run: a fresh database made on this server, dropped afterwards. */
export const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `work` with the URL of a new, empty database on POSTGRES_URL's server; null when that server does not answer. */
export async function conBaseNueva<T>(work: (url: string) => Promise<T>): Promise<T | null> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `ed_bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create database ${name}`);
  try {
    const target = new URL(POSTGRES_URL);
    target.pathname = `/${name}`;
    return await work(target.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The measures on a server that already has CAPSULAS processed capsules. */
async function medirCon(url: string, admin: Session): Promise<Carga[]> {
  return medirServidor(url, admin, SECONDS);
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/**
 * Item 4 on the embedded database (the server `npm run bench` started, given here) and on a
 * PostgreSQL server of its own: prints both side by side and returns them.
 */
export async function benchServidor(
  url: string,
  admin: Session,
  out: NodeJS.WritableStream = process.stdout,
): Promise<{ pglite: Carga[]; postgres: Carga[] | null }> {
  out.write(`Server throughput: uploading ${CAPSULAS} capsules, then ${SECONDS} s per measure at ${CONNECTIONS} connections…\n`);
  await sembrarCapsulas(url, admin);
  const pglite = await medirCon(url, admin);
  out.write(`…and the same on PostgreSQL (${new URL(POSTGRES_URL).host}, a fresh database)…\n`);
  const postgres = await conBaseNueva((databaseUrl) =>
    withServer(
      'ed-bench-pg-',
      async (server) => {
        const session = await signIn(server.url, ADMIN);
        await sembrarCapsulas(server.url, session);
        return medirCon(server.url, session);
      },
      { DATABASE_URL: databaseUrl, JWT_SECRET: 'secreto-del-banco-de-pruebas-0123456789' },
    ),
  );
  const celdas = (cargas: Carga[] | null, i: number): string[] => {
    const carga = cargas?.[i];
    const referencia = cargas?.[0];
    if (!carga || !referencia) return ['-', '-', '-', '-'];
    const share = i === 0 ? '100 %' : `${fmt((100 * carga.rps) / referencia.rps, 1)} %`;
    return [fmt(carga.rps), share, fmt(carga.p95, 1), String(carga.fallidas + carga.errors)];
  };
  const filas = [
    'GET /ingresar/ (static, reference)',
    'GET /capsulas/ (page, session cookies)',
    'GET /api/capsulas/ (list, Bearer)',
    'GET / (home with its blocks, session cookies)',
    'GET /capsulas/?medida=N (a new address each time: rendered, not kept)',
  ].map((what, i) => [what, ...celdas(pglite, i), ...celdas(postgres, i)]);
  const table = formatTable(
    ['measure', 'PGlite req/s', 'share', 'p95 ms', 'failed', 'PostgreSQL req/s', 'share', 'p95 ms', 'failed'],
    filas,
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
  );
  const cumple = (cargas: Carga[] | null) =>
    cargas
      ? cargas
          .slice(1, 4)
          .every((c) => c.rps >= TARGET_SHARE * (cargas[0]?.rps ?? 0) && c.p95 < TARGET_P95_MS && c.fallidas + c.errors === 0)
      : false;
  out.write(
    `\n${table}\n${CONNECTIONS} connections, ${SECONDS} s each, one server process per database; brotli accepted; ` +
      `target: pages and list ≥ ${TARGET_SHARE * 100} % of /ingresar/, p95 < ${TARGET_P95_MS} ms ` +
      `(PGlite ${cumple(pglite) ? 'met' : 'NOT met'}, PostgreSQL ${postgres ? (cumple(postgres) ? 'met' : 'NOT met') : 'not reachable'}).\n`,
  );
  return { pglite, postgres };
}

/** Minutes of mixed load for item 5: BENCH_MEMORIA_MINUTOS, or 10. */
export function minutosMemoria(): number {
  const value = Number(process.env.BENCH_MEMORIA_MINUTOS ?? 10);
  if (!(value > 0))
    throw new Error(`BENCH_MEMORIA_MINUTOS must be a positive number of minutes (got ${process.env.BENCH_MEMORIA_MINUTOS}).`);
  return value;
}

/**
 * Item 5 on a fresh server of its own (PGlite): idle RSS once seeded, the mixed load for
 * `minutes`, RSS along it and some seconds after it.
 */
export async function benchMemoria(minutes: number, out: NodeJS.WritableStream = process.stdout): Promise<Resistencia> {
  out.write(
    `Memory: ${minutes} min of mixed load at ${CONNECTIONS} connections on a server of its own (BENCH_MEMORIA_MINUTOS to change)…\n`,
  );
  return withServer('ed-bench-mem-', async (server) => {
    const admin = await signIn(server.url, ADMIN);
    const [capsulaId] = await sembrarCapsulas(server.url, admin, 2);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const r = await resistencia(server.url, admin, server.process.pid, minutes, capsulaId ?? 1);
    const growth = (100 * (r.secondHalfPeak - r.firstHalfPeak)) / r.firstHalfPeak;
    const perMinute = Array.from({ length: Math.ceil(minutes) }, (_, m) => {
      const slice = r.samples.slice((m * 60_000) / SAMPLE_MS, ((m + 1) * 60_000) / SAMPLE_MS);
      return slice.length ? fmt(Math.max(...slice)) : '-';
    });
    const table = formatTable(
      ['memory (VmRSS)', 'MB'],
      [
        ['idle, seeded, before the load', fmt(r.idle)],
        ['peak, first half of the load', fmt(r.firstHalfPeak)],
        ['peak, second half of the load', `${fmt(r.secondHalfPeak)} (${growth >= 0 ? '+' : ''}${fmt(growth, 1)} %; target within 10 %)`],
        ['at the end of the load', fmt(r.end)],
        [`${SETTLE_MS / 1000} s after the load`, `${fmt(r.after)} (${fmt(r.after - r.idle)} over idle)`],
        ['peak of each minute', perMinute.join(' ')],
        ['requests', `${r.requests} (${r.fallidas} not 2xx, ${r.errors} errors)`],
      ],
      ['left', 'left'],
    );
    out.write(`\n${table}\n`);
    return r;
  });
}

/**
 * `npm run bench` (after `npm run build`): figures, not a test. Fails only if something crashes.
 * Starts the built server on a fresh PGlite data directory and runs each section against it
 * (a section may start servers of its own):
 *
 * - `api`: seeds ~100 teacher accounts through the admin API, then measures over real HTTP on
 *   loopback: sign-in latency, two list queries, list throughput with 8 concurrent clients, the
 *   time from spawn to healthy and the server's memory, with a 1 GiB upload;
 * - `servidor`: issue 15 item 4, a static page, a signed-in page and a list call at 20 connections,
 *   on PGlite and on PostgreSQL (BENCH_DATABASE_URL; scripts/lib/bench-servidor.ts);
 * - `memoria`: issue 15 item 5, RSS over a mixed load of BENCH_MEMORIA_MINUTOS (default 10) minutes.
 * - `subidas`: issue 18, the RSS rise of a 1 GiB resumable (tus) upload in 8 MiB chunks.
 * - `copia-datos`: issue 31, the RSS rise while the copy of a person with BENCH_COPIA_MB (300) MB
 *   of files is built (in this process, scripts/lib/bench-copia.ts).
 * - `mochila`: issue 35, the RSS rise while a collection's mochila of BENCH_MOCHILA_MB (1024) MB
 *   of files is streamed (in this process, scripts/lib/bench-mochila.ts).
 * - `escala`: issue 36, generated installations at sizes ESCALA_TAMANOS (1,10,100) on ESCALA_BASES
 *   (pglite,postgres), each measured on a server of its own; BENCH_JSON=path writes the figures
 *   (scripts/lib/escala/escala.ts).
 *
 * `npm run bench -- servidor memoria` runs only the sections named.
 */
import { performance } from 'node:perf_hooks';
import { type ApiClient, apiClient, type Session, signIn } from '../tests/support/client.ts';
import type { RunningServer } from '../tests/support/server.ts';
import { ADMIN } from '../tests/support/server.ts';
import { requireBuild, withServer } from './lib/api.ts';
import { benchCopia, describirCopia } from './lib/bench-copia.ts';
import { benchListas } from './lib/bench-listas.ts';
import { benchMochila } from './lib/bench-mochila.ts';
import { benchReproductor, describirReproductor, subirCapsula } from './lib/bench-reproductor.ts';
import { benchMemoria, benchServidor, minutosMemoria, rssMb } from './lib/bench-servidor.ts';
import { benchSubidas, describirSubidas } from './lib/bench-subidas.ts';
import { benchEscala } from './lib/escala/escala.ts';
import { docenteActivo, SAMPLE_TEACHER } from './lib/muestras.ts';
import { type Summary, summarize } from './lib/stats.ts';
import { formatTable } from './lib/table.ts';

const TEACHERS = 100;
const SEED_CONCURRENCY = 4;
/** Teachers go to the seeded schools and to this many new ones (created by name), so /api/colegios/ grows. */
const NEW_SCHOOLS = 20;
const LOGIN_WARMUP = 3;
const LOGIN_RUNS = 30;
const LIST_WARMUP = 5;
const LIST_RUNS = 200;
const CLIENTS = 8;
const THROUGHPUT_MS = 5_000;

const NOMBRES = ['Ana María', 'José', 'Camila', 'Matías Ignacio', 'Valentina', 'Benjamín', 'Fernanda', 'Tomás', 'Catalina', 'Joaquín'];
const APELLIDOS = ['González Muñoz', 'Rojas Díaz', 'Pérez Soto', 'Contreras Silva', 'Martínez Sepúlveda', 'Morales', 'Araya Fuentes'];

/** Runs `call` and returns how long it took, in ms; throws when the answer is not a success. */
async function timed(call: () => Promise<{ response: Response; error?: unknown }>): Promise<number> {
  const start = performance.now();
  const { response, error } = await call();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${JSON.stringify(error)}`);
  return ms;
}

async function repeat(times: number, call: () => Promise<{ response: Response; error?: unknown }>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await timed(call));
  return samples;
}

async function seedTeachers(api: ApiClient): Promise<{ created: number; ms: number; perCall: Summary }> {
  const { data: colegios } = await api.GET('/api/colegios/');
  const escuelas = (colegios ?? []).map((c) => c.nombre);
  const stamp = Date.now().toString(36);
  let next = 0;
  const samples: number[] = [];
  const start = performance.now();
  const worker = async () => {
    for (let i = next++; i < TEACHERS; i = next++) {
      const body = {
        email: `docente.bench.${stamp}.${i}@example.cl`,
        nombres: NOMBRES[i % NOMBRES.length] ?? 'Docente',
        apellidos: APELLIDOS[i % APELLIDOS.length] ?? 'Prueba',
        colegio: escuelas[i % (escuelas.length + NEW_SCHOOLS)] ?? `Escuela de Prueba Nº ${i % (escuelas.length + NEW_SCHOOLS)}`,
        admin: false,
      };
      samples.push(await timed(() => api.POST('/api/admin/usuarios/', { body })));
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
  return { created: samples.length, ms: performance.now() - start, perCall: summarize(samples) };
}

/** A unit of Mathematics (area 'MA') in level '01' that has learning objectives. */
async function findUnidad(api: ApiClient): Promise<{ id: number; nombre: string; oas: number }> {
  const { data: areas } = await api.GET('/api/curriculum_escolar/areas/');
  const ma = areas?.find((a) => a.codigo === 'MA');
  if (!ma) throw new Error(`No area with codigo 'MA' in /api/curriculum_escolar/areas/ (got ${areas?.length ?? 0} areas).`);
  const { data: unidades } = await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area: ma.id, nivel: '01' } } });
  if (!unidades?.length) throw new Error(`No units for area MA (id ${ma.id}) in level 01.`);
  for (const unidad of unidades) {
    const { data: oas } = await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad.id } } });
    if (oas?.length) return { id: unidad.id, nombre: unidad.nombre, oas: oas.length };
  }
  const first = unidades[0];
  return { id: first?.id ?? 0, nombre: first?.nombre ?? '', oas: 0 };
}

async function throughput(
  call: () => Promise<{ response: Response }>,
): Promise<{ rps: number; ok: number; failed: number; latency: Summary }> {
  const samples: number[] = [];
  let failed = 0;
  const start = performance.now();
  const end = start + THROUGHPUT_MS;
  const client = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const { response } = await call();
        if (response.ok) samples.push(performance.now() - t);
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const elapsed = (performance.now() - start) / 1000;
  return { rps: samples.length / elapsed, ok: samples.length, failed, latency: summarize(samples) };
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const mb = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} MB` : 'n/a');

const UPLOAD_BYTES = 1024 ** 3;

/**
 * The memory target of large uploads: a 1 GiB capsule upload (an mp4 header, then zeros) streamed to the
 * server while its RSS is sampled every 20 ms. The server must stream it to disk: the rise over
 * the idle baseline stays under 64 MB. (The file is then refused as not a playable video.)
 */
async function uploadMemory(url: string, access: string, pid: number | undefined) {
  const boundary = `----bench${Date.now()}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fields = { titulo: 'Bench', descripcion: 'Carga de 1 GiB', id_area: '1', id_metodologia: '1', id_nivel: '01' };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => field(name, value))
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="archivo"; filename="grande.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const ftyp = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      controller.enqueue(ftyp);
      sent = ftyp.length;
    },
    pull(controller) {
      const rest = UPLOAD_BYTES - sent;
      if (rest <= 0) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      const piece = rest >= chunk.length ? chunk : chunk.subarray(0, rest);
      sent += piece.length;
      controller.enqueue(piece);
    },
  });
  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssMb(pid, 'VmRSS');
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid, 'VmRSS'));
  }, 20);
  const start = performance.now();
  const response = await fetch(`${url}/api/capsulas/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  await response.arrayBuffer();
  clearInterval(sampler);
  return { status: response.status, seconds: (performance.now() - start) / 1000, baseline, peak, rise: peak - baseline };
}

/** What every section gets: the shared server (fresh PGlite) and the admin's session on it. */
interface Contexto {
  server: RunningServer;
  admin: Session;
  startupMs: number;
}

interface Seccion {
  nombre: string;
  correr(ctx: Contexto): Promise<unknown>;
  /** Starts every server it measures: run alone, no shared server is started for it. */
  propia?: true;
}

/** The sections in the order they run; a new measure is a new entry here (its code in scripts/lib/). */
const SECCIONES: Seccion[] = [
  { nombre: 'api', correr: seccionApi },
  { nombre: 'reproductor', correr: seccionReproductor },
  // A fresh sign-in: the sections before may outlast the 15-minute access token.
  { nombre: 'listas', correr: async ({ server }) => benchListas(server.url, await signIn(server.url, ADMIN)) },
  { nombre: 'servidor', correr: ({ server, admin }) => benchServidor(server.url, admin) },
  { nombre: 'memoria', correr: () => benchMemoria(minutosMemoria()) },
  // Issue 18: a 1 GiB resumable (tus) upload; the server's RSS must rise by under 32 MB.
  {
    nombre: 'subidas',
    correr: async ({ server }) =>
      process.stdout.write(`${describirSubidas(await benchSubidas(server.url, await signIn(server.url, ADMIN), server.process.pid))}\n`),
  },
  // Issue 31: the copy of a person's data streams its files; the RSS rise is printed.
  { nombre: 'copia-datos', correr: async () => process.stdout.write(`${describirCopia(await benchCopia())}\n`) },
  { nombre: 'mochila', correr: async () => process.stdout.write(`${await benchMochila()}\n`) },
  // Issue 36: generated installations of 1x/10x/100x a school network, on PGlite and PostgreSQL.
  { nombre: 'escala', correr: () => benchEscala(), propia: true },
];

/**
 * The capsule page as a teacher sees it (an admin or the author would also load the delete
 * button's island): a 60-second capsule uploaded and transcoded, then measured in Chromium.
 */
async function seccionReproductor({ server }: Contexto): Promise<void> {
  const admin = await signIn(server.url, ADMIN);
  process.stdout.write('Uploading a 60 s capsule and waiting for its HLS renditions…\n');
  const id = await subirCapsula(server.url, admin, 60);
  await docenteActivo(server.url, server.dataDir, apiClient(server.url, admin.access));
  const docente = await signIn(server.url, SAMPLE_TEACHER);
  const cifras = await benchReproductor(server.url, `${server.url}/capsulas/${id}`, docente);
  process.stdout.write(`${describirReproductor(cifras)}\n`);
}

async function seccionApi({ server, admin, startupMs }: Contexto): Promise<void> {
  const runStart = performance.now();
  const url = server.url;
  const api = apiClient(url, admin.access);
  process.stdout.write(`Seeding ${TEACHERS} teacher accounts through POST /api/admin/usuarios/…\n`);
  const seed = await seedTeachers(api);

  process.stdout.write('Measuring…\n');
  const anonymous = apiClient(url);
  const login = () => anonymous.POST('/auth/login/', { body: ADMIN });
  await repeat(LOGIN_WARMUP, login);
  const loginSamples = await repeat(LOGIN_RUNS, login);

  const unidad = await findUnidad(api);
  const oas = () => api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad.id } } });
  const colegios = () => api.GET('/api/colegios/');
  await repeat(LIST_WARMUP, oas);
  await repeat(LIST_WARMUP, colegios);
  const oasSamples = await repeat(LIST_RUNS, oas);
  const colegiosSamples = await repeat(LIST_RUNS, colegios);
  const { data: listaColegios } = await colegios();
  const load = await throughput(oas);
  process.stdout.write("Uploading 1 GiB as a capsule video while sampling the server's memory…\n");
  const upload = await uploadMemory(url, admin.access, server.process.pid);
  const runSeconds = (performance.now() - runStart) / 1000;

  const row = (what: string, s: Summary, note: string) => [what, String(s.count), ms(s.p50), ms(s.p95), ms(s.max), note];
  const oasPath = `GET /api/curriculum_escolar/oas/?unidad=${unidad.id}`;
  const latency = formatTable(
    ['measure', 'n', 'p50 ms', 'p95 ms', 'max ms', 'note'],
    [
      row('POST /auth/login/ (admin)', summarize(loginSamples), `sequential, after ${LOGIN_WARMUP} warm-up calls; argon2id`),
      row(oasPath, summarize(oasSamples), `sequential, Bearer; ${unidad.oas} OAs (${unidad.nombre.slice(0, 40)})`),
      row('GET /api/colegios/', summarize(colegiosSamples), `sequential, Bearer; ${listaColegios?.length ?? 0} schools`),
      row(`${oasPath}, ${CLIENTS} clients`, load.latency, `${THROUGHPUT_MS / 1000} s: ${load.rps.toFixed(0)} req/s, ${load.failed} failed`),
      row(
        'POST /api/admin/usuarios/ (seeding)',
        seed.perCall,
        `${seed.created} accounts, ${SEED_CONCURRENCY} at a time, ${(seed.ms / 1000).toFixed(1)} s`,
      ),
    ],
    ['left', 'right', 'right', 'right', 'right', 'left'],
  );
  const serverTable = formatTable(
    ['server', 'value'],
    [
      ['spawn to healthy (fresh data dir: migrate + seed)', `${startupMs.toFixed(0)} ms (startServer polls /healthz every 200 ms)`],
      [`throughput, ${CLIENTS} concurrent clients`, `${load.rps.toFixed(0)} req/s (${load.ok} ok, ${load.failed} failed)`],
      [
        '1 GiB capsule upload: RSS rise over idle',
        `${upload.rise.toFixed(1)} MB (idle ${upload.baseline.toFixed(0)} MB, peak ${upload.peak.toFixed(0)} MB; target ≤ 64 MB; ${upload.seconds.toFixed(1)} s, answered ${upload.status})`,
      ],
      ['RSS after the section (VmRSS)', mb(rssMb(server.process.pid, 'VmRSS'))],
      ['peak RSS (VmHWM)', mb(rssMb(server.process.pid, 'VmHWM'))],
      ['section time', `${runSeconds.toFixed(1)} s`],
    ],
    ['left', 'left'],
  );
  process.stdout.write(`\n${latency}\n\n${serverTable}\n\n`);
}

async function main(): Promise<void> {
  requireBuild();
  const pedidas = process.argv.slice(2);
  const desconocidas = pedidas.filter((n) => !SECCIONES.some((s) => s.nombre === n));
  if (desconocidas.length > 0) {
    throw new Error(`Unknown section(s) ${desconocidas.join(', ')}; the sections are ${SECCIONES.map((s) => s.nombre).join(', ')}.`);
  }
  const secciones = pedidas.length > 0 ? SECCIONES.filter((s) => pedidas.includes(s.nombre)) : SECCIONES;
  const runStart = performance.now();
  if (secciones.every((s) => s.propia)) {
    for (const seccion of secciones) {
      process.stdout.write(`\n── ${seccion.nombre} ──\n`);
      await seccion.correr({} as Contexto);
    }
    process.stdout.write(`\nNode ${process.version}; whole run ${((performance.now() - runStart) / 1000).toFixed(1)} s.\n`);
    return;
  }
  process.stdout.write('Starting the built server on a fresh PGlite data directory…\n');
  await withServer('ed-bench-', async (server, startupMs) => {
    const admin = await signIn(server.url, ADMIN);
    for (const seccion of secciones) {
      process.stdout.write(`\n── ${seccion.nombre} ──\n`);
      await seccion.correr({ server, admin, startupMs });
    }
    process.stdout.write(
      `\nNode ${process.version}, loopback HTTP, shared server pid ${server.process.pid}; whole run ${((performance.now() - runStart) / 1000).toFixed(1)} s.\n`,
    );
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`\nbench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

/**
 * Issue 36 item 2: the figures of one generated installation. At least 200 generated teachers sign
 * in; each query then runs for ESCALA_SEGUNDOS (default 2) from CLIENTES concurrent clients, every
 * request as the next teacher and with the next of its varied parameters. Every GET also carries a
 * parameter the server ignores, new each time, so the per-person answer cache (decision 0046) sends
 * none of them and what is measured is the database's work; ESCALA_CACHE=1 drops it, and the
 * cache then answers repeated addresses. Each query's share of answers sent from that cache is
 * read from the `Server-Timing: cache;desc="hit"` header the cache adds.
 */
import { performance } from 'node:perf_hooks';
import { type Session, signIn } from '../../../tests/support/client.ts';
import { ADMIN } from '../../../tests/support/server.ts';
import { rssMb } from '../bench-servidor.ts';
import { percentile } from '../stats.ts';
import { CLAVE_ESCALA, correoDocente, type Generado } from './generador.ts';

const CLIENTES = 20;
const DOCENTES_MEDIDOS = 200;
const MAX_PETICIONES = 4000;
/** Counted views per second under the home's second row: a few hundred teachers at work. */
const VISTAS_POR_SEGUNDO = 5;

export const segundosPorConsulta = () => {
  const s = Number(process.env.ESCALA_SEGUNDOS ?? 2);
  if (!(s > 0)) throw new Error(`ESCALA_SEGUNDOS must be a positive number of seconds (got ${process.env.ESCALA_SEGUNDOS}).`);
  return s;
};

export interface Medida {
  consulta: string;
  p50_ms: number;
  p95_ms: number;
  rps: number;
  /** Share of answers the per-person cache sent (0..1). */
  aciertos: number;
  fallidas: number;
  n: number;
}

interface Peticion {
  ruta: string;
  metodo?: 'GET' | 'POST';
  cuerpo?: unknown;
}

/** Who asks: a teacher (Bearer, or cookies for pages), the admin, or nobody. */
type Como = 'docente' | 'docente-pagina' | 'admin' | 'admin-pagina' | 'anonimo';

interface Consulta {
  nombre: string;
  /** The i-th request of the run. */
  peticion: (i: number) => Peticion;
  como: Como;
  /** Requests others make meanwhile, `porSegundo` of them, which the figures are taken under. */
  mientras?: { porSegundo: number; como: Como; peticion: (i: number) => Peticion };
}

/** Search words, with their accents and without, from the generator's topics. */
const PALABRAS = [
  'fracción',
  'comprensión lectora',
  'geometría',
  'fotosíntesis',
  'evaluación',
  'química',
  'célula',
  'música',
  'álgebra',
  'energía',
];
const sinAcentos = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const APELLIDOS_BUSCADOS = ['gonzalez', 'Muñoz', 'perez', 'Díaz', 'sepulveda', 'ALVAREZ', 'rojas', 'Fernández'];

export function consultas(g: Generado): Consulta[] {
  const de = <T>(lista: readonly T[], i: number): T => lista[i % lista.length] as T;
  const lista =
    (base: string, extra = '') =>
    (i: number) => ({ ruta: `${base}?pagina=1${extra}&order=${i % 3 === 0 ? 'n_visitas' : 'fecha'}` });
  const { materiales, capsulas, manuales } = g.conteos;
  return [
    { nombre: 'materials, page 1', como: 'docente', peticion: lista('/api/bdocente/') },
    { nombre: 'materials, page 500', como: 'docente', peticion: () => ({ ruta: '/api/bdocente/?pagina=500' }) },
    { nombre: 'capsules, page 1', como: 'docente', peticion: lista('/api/capsulas/') },
    { nombre: 'capsules, page 500', como: 'docente', peticion: () => ({ ruta: '/api/capsulas/?pagina=500' }) },
    { nombre: 'manuals, page 1', como: 'docente', peticion: lista('/api/manuales/') },
    { nombre: 'manuals, page 500', como: 'docente', peticion: () => ({ ruta: '/api/manuales/?pagina=500' }) },
    {
      nombre: 'materials, title with accents',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/bdocente/?titulo=${encodeURIComponent(de(PALABRAS, i))}` }),
    },
    {
      nombre: 'materials, title without accents',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/bdocente/?titulo=${encodeURIComponent(sinAcentos(de(PALABRAS, i)).toUpperCase())}` }),
    },
    {
      nombre: 'capsules, title without accents',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/capsulas/?titulo=${encodeURIComponent(sinAcentos(de(PALABRAS, i)))}` }),
    },
    {
      nombre: 'materials, OA filter (busy and rare OAs)',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/bdocente/?oa=${i % 2 ? de(g.oasPopulares, i) : de(g.oasRaros, i)}` }),
    },
    { nombre: 'materials, unit filter', como: 'docente', peticion: (i) => ({ ruta: `/api/bdocente/?id_unidad=${de(g.unidades, i * 7)}` }) },
    {
      nombre: 'material detail',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/bdocente/${1 + ((i * 7919) % materiales)}/` }),
    },
    { nombre: 'capsule detail', como: 'docente', peticion: (i) => ({ ruta: `/api/capsulas/${1 + ((i * 7919) % capsulas)}/` }) },
    { nombre: 'manual detail', como: 'docente', peticion: (i) => ({ ruta: `/api/manuales/${1 + ((i * 7919) % manuales)}/` }) },
    { nombre: "popular item's comments", como: 'docente', peticion: () => ({ ruta: `/api/bdocente/comentarios/${g.popular}/` }) },
    {
      nombre: 'directory search',
      como: 'docente',
      peticion: (i) => ({ ruta: `/api/usuarios/profesores/?profesor=${encodeURIComponent(de(APELLIDOS_BUSCADOS, i))}` }),
    },
    { nombre: 'forum categories', como: 'docente', peticion: () => ({ ruta: '/api/foro/categorias/' }) },
    { nombre: 'home feed (page /)', como: 'docente-pagina', peticion: () => ({ ruta: '/' }) },
    {
      // Counted views write the items' rows all day; the home shows none of what they change.
      nombre: `home feed while others open materials (${VISTAS_POR_SEGUNDO}/s)`,
      como: 'docente-pagina',
      peticion: () => ({ ruta: '/' }),
      mientras: {
        porSegundo: VISTAS_POR_SEGUNDO,
        como: 'docente',
        peticion: (i) => ({ ruta: `/api/bdocente/${1 + ((i * 104_729) % materiales)}/` }),
      },
    },
    { nombre: 'curriculum map', como: 'docente', peticion: (i) => ({ ruta: `/api/bdocente/cobertura/?area=${de(g.areas, i)}` }) },
    { nombre: 'admin statistics (API)', como: 'admin', peticion: () => ({ ruta: '/api/admin/estadisticas/' }) },
    { nombre: 'admin statistics (page)', como: 'admin-pagina', peticion: () => ({ ruta: '/admin/estadisticas' }) },
    {
      nombre: 'sign-in',
      como: 'anonimo',
      peticion: (i) => ({
        ruta: '/auth/login/',
        metodo: 'POST',
        cuerpo: { email: correoDocente(i % Math.min(DOCENTES_MEDIDOS, g.conteos.docentes)), password: CLAVE_ESCALA },
      }),
    },
  ];
}

/** Signs in `n` generated teachers, four at a time (argon2id on a shared machine). */
async function ingresar(url: string, n: number): Promise<Session[]> {
  const sesiones: Session[] = [];
  let siguiente = 0;
  const trabajador = async () => {
    for (let i = siguiente++; i < n; i = siguiente++) sesiones.push(await signIn(url, { email: correoDocente(i), password: CLAVE_ESCALA }));
  };
  await Promise.all(Array.from({ length: 4 }, trabajador));
  return sesiones;
}

/** One request of a run: its time, whether it was answered (200, 201), and whether from the per-person cache. */
async function enviar(url: string, como: Como, pedida: Peticion, i: number, docente: Session, admin: Session) {
  const { metodo = 'GET', cuerpo } = pedida;
  // A parameter the server ignores, new on every request: no answer comes from the per-person
  // cache, so the figures are the database's work (ESCALA_CACHE=1 leaves the cache in play).
  const ruta =
    metodo === 'GET' && !process.env.ESCALA_CACHE ? `${pedida.ruta}${pedida.ruta.includes('?') ? '&' : '?'}escala=${i}` : pedida.ruta;
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'br, gzip' };
  if (como === 'docente') headers.authorization = `Bearer ${docente.access}`;
  if (como === 'docente-pagina') headers.cookie = docente.cookie;
  if (como === 'admin') headers.authorization = `Bearer ${admin.access}`;
  if (como === 'admin-pagina') headers.cookie = admin.cookie;
  if (cuerpo !== undefined) headers['content-type'] = 'application/json';
  if (como.endsWith('pagina')) headers.accept = 'text/html';
  const t = performance.now();
  try {
    const respuesta = await fetch(`${url}${ruta}`, {
      method: metodo,
      headers,
      redirect: 'manual',
      ...(cuerpo === undefined ? {} : { body: JSON.stringify(cuerpo) }),
    });
    await respuesta.arrayBuffer();
    return {
      ms: performance.now() - t,
      ok: respuesta.status === 200 || respuesta.status === 201,
      acierto: /cache;desc="hit"/.test(respuesta.headers.get('server-timing') ?? ''),
    };
  } catch {
    return { ms: performance.now() - t, ok: false, acierto: false };
  }
}

async function correr(url: string, consulta: Consulta, docentes: Session[], admin: Session, segundos: number): Promise<Medida> {
  const muestras: number[] = [];
  let aciertos = 0;
  let fallidas = 0;
  let n = 0;
  const inicio = performance.now();
  const fin = inicio + segundos * 1000;
  const cliente = async () => {
    while (performance.now() < fin && n < MAX_PETICIONES) {
      const i = n++;
      const r = await enviar(url, consulta.como, consulta.peticion(i), i, docentes[i % docentes.length] as Session, admin);
      if (!r.ok) {
        fallidas++;
        continue;
      }
      muestras.push(r.ms);
      if (r.acierto) aciertos++;
    }
  };
  /** The other people's requests meanwhile, at their pace, each as the next teacher; not measured, but each must be answered. */
  const fondo = async ({ porSegundo, como, peticion }: NonNullable<Consulta['mientras']>) => {
    for (let i = 0; performance.now() < fin; i++) {
      const siguiente = inicio + (i * 1000) / porSegundo;
      if (siguiente > performance.now()) await new Promise((listo) => setTimeout(listo, siguiente - performance.now()));
      if (!(await enviar(url, como, peticion(i), i, docentes[(i * 37) % docentes.length] as Session, admin)).ok) fallidas++;
    }
  };
  await Promise.all([...Array.from({ length: CLIENTES }, cliente), ...(consulta.mientras ? [fondo(consulta.mientras)] : [])]);
  const transcurrido = (performance.now() - inicio) / 1000;
  return {
    consulta: consulta.nombre,
    p50_ms: percentile(muestras, 50),
    p95_ms: percentile(muestras, 95),
    rps: muestras.length / transcurrido,
    aciertos: muestras.length ? aciertos / muestras.length : 0,
    fallidas,
    n: muestras.length,
  };
}

/**
 * Whether a query is measured: all of them, or with ESCALA_CONSULTAS (comma-separated words) those
 * whose name holds one of the words ('home,map'), to look at a few while changing them. Figures of
 * a partial run are not the section's table.
 */
const elegida = (consulta: Consulta): boolean => {
  const palabras = (process.env.ESCALA_CONSULTAS ?? '')
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  return palabras.length === 0 || palabras.some((p) => consulta.nombre.toLowerCase().includes(p));
};

/** Every query of `consultas(g)` (or ESCALA_CONSULTAS') against the server at `url`, then its RSS (a last row, `rss_mb`). */
export async function medir(
  url: string,
  pid: number | undefined,
  g: Generado,
  log: (linea: string) => void = () => {},
): Promise<{ medidas: Medida[]; rssMb: number; picoMb: number; ingresoSegundos: number }> {
  const t0 = performance.now();
  const docentes = await ingresar(url, Math.min(DOCENTES_MEDIDOS, g.conteos.docentes));
  const admin = await signIn(url, ADMIN);
  const ingresoSegundos = (performance.now() - t0) / 1000;
  log(`  ${docentes.length} teachers signed in (${ingresoSegundos.toFixed(1)} s)`);
  const segundos = segundosPorConsulta();
  const medidas: Medida[] = [];
  for (const consulta of consultas(g).filter(elegida)) medidas.push(await correr(url, consulta, docentes, admin, segundos));
  return { medidas, rssMb: rssMb(pid), picoMb: rssMb(pid, 'VmHWM'), ingresoSegundos };
}

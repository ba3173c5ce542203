/**
 * Lighthouse on one page of each kind, anonymous and signed in (issue 15, item 7), and SEO 100 on
 * /explorar/ and a public material's page (issue 34), against the
 * built server on a fresh data directory of its own, with the samples `npm run budgets` measures
 * (a processed capsule, a material, a manual, a forum conversation, a teacher): a performance score
 * under 95, LCP over 2 s, TBT over 200 ms, CLS over 0.02 or an accessibility score under 100 fails,
 * naming the page and the figure. Mobile defaults (simulated Slow 4G), the CPU slowed to a mid-tier phone on any host (decision 0036), one browser, the
 * pages in turn.
 *
 * A page that misses a threshold is measured four times more and judged by the median of the five
 * runs (tests/support/lighthouse.ts says why; decision 0086): a minute-long pause of this shared
 * machine fails no page, a page that is slow fails every time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crearMuestras, MATERIAL_DE_MUESTRA, type Muestras, publicarMaterial } from '../../scripts/lib/muestras.ts';
import { rutaPublica } from '../../src/lib/explorar.ts';
import { apiClient, signIn } from '../support/client.ts';
import { type Cifras, incumplimientos, mediana, type NavegadorLighthouse, navegadorLighthouse, resumen } from '../support/lighthouse.ts';
import { ADMIN, type RunningServer, removeDir, startServer } from '../support/server.ts';

interface Pagina {
  nombre: string;
  ruta: (m: Muestras) => string;
  sesion: boolean;
  /** A public page search engines may index (issue 34): its SEO score must be 100 too. */
  seo?: boolean;
}

// Anonymous pages first: the browser signs in once, before the first page that needs a session.
const PAGINAS: Pagina[] = [
  { nombre: 'ingresar', ruta: () => '/ingresar/', sesion: false },
  { nombre: 'explorar', ruta: () => '/explorar/', sesion: false, seo: true },
  { nombre: 'material público', ruta: (m) => rutaPublica('material', m.material.id, MATERIAL_DE_MUESTRA), sesion: false, seo: true },
  { nombre: 'inicio', ruta: () => '/', sesion: true },
  { nombre: 'lista de cápsulas', ruta: () => '/capsulas/', sesion: true },
  { nombre: 'lista de la biblioteca', ruta: () => '/biblioteca-docente/', sesion: true },
  { nombre: 'lista de manuales', ruta: () => '/manuales/', sesion: true },
  { nombre: 'cápsula', ruta: (m) => `/capsulas/${m.capsulaId}`, sesion: true },
  { nombre: 'material', ruta: (m) => `/biblioteca-docente/${m.material.id}`, sesion: true },
  { nombre: 'manual', ruta: (m) => `/manuales/${m.manualId}`, sesion: true },
  { nombre: 'foro', ruta: () => '/foro/', sesion: true },
  {
    nombre: 'conversación del foro',
    ruta: (m) => `/foro/categorias/${m.foro.categoriaId}/conversacion/${m.foro.conversacionId}`,
    sesion: true,
  },
  { nombre: 'comunidad', ruta: () => '/comunidad/', sesion: true },
  { nombre: 'perfil de un colega', ruta: (m) => `/perfil/${m.teacherId}`, sesion: true },
  { nombre: 'editar mi perfil', ruta: () => '/perfil/editar', sesion: true },
  { nombre: 'subir una cápsula', ruta: () => '/capsulas/subir', sesion: true },
];

/**
 * Runs of a page that missed a threshold, its first included. Five: Lighthouse's documentation
 * (docs/variability.md, 'Run Lighthouse Multiple Times') finds the median of five runs twice as
 * stable as one run; three left a page at the mercy of two slow runs in a row (decision 0086).
 */
const CORRIDAS_SI_FALLA = 5;

let server: RunningServer | undefined;
let navegador: NavegadorLighthouse | undefined;
let muestras: Muestras;
let conSesion = false;
const medidas: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const sesion = await signIn(server.url, ADMIN);
  muestras = await crearMuestras(server.url, server.dataDir, sesion);
  await publicarMaterial(apiClient(server.url, sesion.access), muestras.material.id);
  navegador = await navegadorLighthouse();
}, 240_000);

afterAll(async () => {
  // The figures of every page, passed or not: what issue 15 asks to report.
  if (medidas.length > 0) process.stdout.write(`\nLighthouse (móvil, simulado):\n${medidas.join('\n')}\n`);
  await navegador?.cerrar();
  await server?.stop();
  if (server) removeDir(server.dataDir);
});

describe('Lighthouse', () => {
  it.each(PAGINAS.map((p) => [p.nombre, p] as const))('%s meets issue 15 thresholds', async (nombre, pagina) => {
    if (!server || !navegador) throw new Error('el servidor o el navegador no arrancó');
    if (pagina.sesion && !conSesion) {
      const respuesta = await navegador.context.request.post(`${server.url}/auth/login/`, { data: ADMIN });
      expect(respuesta.status(), await respuesta.text()).toBe(200);
      conSesion = true;
    }
    const url = server.url + pagina.ruta(muestras);
    const opciones = { seo: pagina.seo === true };
    const corridas: Cifras[] = [await navegador.auditar(url, opciones)];
    if (incumplimientos(nombre, corridas[0] as Cifras).length > 0)
      while (corridas.length < CORRIDAS_SI_FALLA) corridas.push(await navegador.auditar(url, opciones));
    const cifras = mediana(corridas);
    const nota =
      corridas.length > 1
        ? `  (mediana de ${corridas.length}: TBT ${corridas.map((c) => c.tbtMs).join('/')} ms, índice de CPU ${corridas.map((c) => c.indiceCpu).join('/')})`
        : '';
    medidas.push(resumen(nombre, cifras) + nota);
    expect(incumplimientos(nombre, cifras)).toEqual([]);
  });
});

/**
 * `client:reproduccion` (registered in astro.config.mjs): hydrates an island once the capsule
 * player has shown its first frame, so on a slow link React and the island's code do not compete
 * with the first video segment. Without a player that starts on its own (none on the page, or no
 * autoplay: since issue 20 the capsule player waits for play) it hydrates when the browser is idle; and at the
 * latest after ESPERA_MAXIMA_MS. An island hydrated this way must work before that: the like
 * button is a plain form until then. `client:reproduccion="visible"` also waits until the island
 * is in view (the comments: on a wide screen they are in view at once, and React would otherwise
 * arrive with the player).
 */
import type { ClientDirective } from 'astro';
import { conexionActual } from './conexion.ts';

const ESPERA_MAXIMA_MS = 10_000;

function cuandoLibre(listo: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(listo, { timeout: 2_000 });
  else setTimeout(listo, 200);
}

/** Resolves once the player plays, fails or ends, or the wait is over. */
function primerCuadro(): Promise<void> {
  return new Promise((resolve) => {
    const video = document.querySelector('hls-video');
    if (!video?.hasAttribute('autoplay') || conexionActual()) return cuandoLibre(resolve);
    for (const evento of ['playing', 'error', 'ended']) video.addEventListener(evento, () => resolve(), { once: true });
    setTimeout(resolve, ESPERA_MAXIMA_MS);
  });
}

/** Resolves once one of the island's children is in view. */
function visible(isla: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    const observador = new IntersectionObserver((entradas) => {
      if (!entradas.some((e) => e.isIntersecting)) return;
      observador.disconnect();
      resolve();
    });
    const hijos = Array.from(isla.children);
    if (hijos.length === 0) return resolve();
    for (const hijo of hijos) observador.observe(hijo);
  });
}

const directiva: ClientDirective = async (load, opciones, isla) => {
  await primerCuadro();
  if (opciones.value === 'visible') await visible(isla);
  const hidratar = await load();
  await hidratar();
};

export default directiva;

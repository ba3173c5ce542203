/**
 * Makes the capsule players of a page live (Reproductor.astro). Plain module, no React: the page
 * only carries this loader; hls-video-element (with hls.js) and media-chrome come in two lazy
 * chunks fetched side by side (codigo-reproductor.ts, controles-reproductor.ts), the player's own
 * budget in `npm run budgets`.
 *
 * - Nothing plays until the person presses play (issue 20): before that the player holds the poster,
 *   the playlists and the first 2-second segment (`preload="metadata"`), so play starts at once
 *   without spending a teacher's mobile data on a video they may not watch.
 * - Playback starts on the lowest rung (teachers on slow mobile data), then adapts.
 * - At most about 15 s are buffered ahead of the playhead, playing or paused (docs/DESIGN.md budgets).
 * - 'Ahorro de datos' (the person's preference, or Save-Data or a slow connection): the player
 *   fetches nothing of the video but its playlists until play (the page then preloads nothing
 *   when it knew: see Reproductor.astro), and stays at or below 360p unless the person picks more
 *   in the quality menu. The player's own switch turns it on or off and saves it (ahorro-reproductor.ts).
 * - A quality picked in the menu is remembered for every capsule (closest rung not above it;
 *   with the data saver, not above 360p either).
 * - Each quality in the menu says what a minute of it costs ('234p · ~1,9 MB/min').
 * - A stream that cannot load shows docs/SPEC.md's message in the player box.
 */
import type { HlsVideoElement } from 'hls-video-element';
import type { MediaRenditionMenu } from 'media-chrome/menu';
import { ahorroActivo, type EstadoAhorro, estadoAhorro } from './ahorro-datos.ts';
import { ALTO_AHORRO, nivelTope } from './calidades.ts';

const MENSAJE_ERROR = 'Hubo un error, no se pudo cargar el video:(';
const CLAVE_CALIDAD = 'ed-calidad-video';

/** A remembered height in pixels (360, 720...) or 'auto'. */
type Calidad = number | 'auto';

/** The part of media-tracks' rendition list we use (hls-video-element mirrors hls.js levels in it). */
interface ListaCalidades extends EventTarget {
  selectedIndex: number;
}

type VideoHls = HlsVideoElement & { videoRenditions?: ListaCalidades };
type ApiHls = NonNullable<HlsVideoElement['api']>;
type ClaseHls = typeof import('hls-video-element').Hls;
type Codigo = typeof import('./codigo-reproductor.ts');

/**
 * hls.js requests the next segment only while less than this many seconds are buffered ahead;
 * a segment lasts at most 6 s (the first one 2 s; src/lib/server/media/video.server.ts), so the
 * buffer never holds more than about 14 s ahead of the playhead, and a paused video stops downloading there.
 */
const SEGUNDOS_MINIMOS_ADELANTE = 8;
/** Played video kept behind the playhead, for seeking back without downloading it again. */
const SEGUNDOS_ATRAS = 30;

/**
 * hls.js's settings. With the data saver the ceiling is 360p (ahorro-reproductor.ts) instead of the
 * player's size: hls.js's size cap would overwrite any other.
 */
const configHls = (ahorro: boolean) => ({
  startLevel: 0,
  capLevelToPlayerSize: !ahorro,
  maxBufferLength: SEGUNDOS_MINIMOS_ADELANTE,
  maxMaxBufferLength: SEGUNDOS_MINIMOS_ADELANTE,
  backBufferLength: SEGUNDOS_ATRAS,
});

function leerCalidad(guardada: string | null): Calidad {
  const alto = Number(guardada);
  return Number.isInteger(alto) && alto > 0 ? alto : 'auto';
}

// localStorage can be blocked (private modes, policies); the remembered quality is only a
// convenience, so without storage the player simply starts on the lowest rung every time.
function calidadGuardada(): Calidad {
  try {
    return leerCalidad(localStorage.getItem(CLAVE_CALIDAD));
  } catch {
    return 'auto';
  }
}

function guardarCalidad(calidad: Calidad): void {
  try {
    localStorage.setItem(CLAVE_CALIDAD, String(calidad));
  } catch {
    // See calidadGuardada: not remembering is acceptable.
  }
}

function mostrarError(caja: HTMLElement): void {
  const alerta = caja.querySelector<HTMLElement>('[data-reproductor-error]');
  if (!alerta?.hidden) return;
  alerta.textContent = MENSAJE_ERROR;
  alerta.hidden = false;
  caja.classList.add('con-error');
  // Controls of a video that cannot play would only mislead keyboard and screen reader users.
  caja.querySelector('media-controller')?.setAttribute('inert', '');
}

/**
 * Applies the remembered quality as soon as hls.js knows the levels (before the first segment);
 * with the data saver on, never above its ceiling.
 */
function aplicarCalidad(video: VideoHls, api: ApiHls, Hls: ClaseHls, ahorro: boolean): void {
  const guardada = calidadGuardada();
  const calidad = ahorro && guardada !== 'auto' ? Math.min(guardada, ALTO_AHORRO) : guardada;
  if (calidad === 'auto') return;
  const elegir = () => {
    const nivel = Math.max(nivelTope(api.levels, calidad), 0);
    api.startLevel = nivel;
    // Through the rendition list, so the menu shows the choice and hls.js locks that level.
    if (video.videoRenditions) video.videoRenditions.selectedIndex = nivel;
  };
  if (api.levels.length > 0) elegir();
  else api.once(Hls.Events.MANIFEST_PARSED, elegir);
}

function vigilarErrores(caja: HTMLElement, video: VideoHls, api: ApiHls | null, Hls: ClaseHls): void {
  let recuperado = false;
  // A decoding hiccup is often recoverable once by hls.js; anything else ends playback.
  const fallar = (recuperable: boolean) => {
    if (api && recuperable && !recuperado) {
      recuperado = true;
      api.recoverMediaError();
      return;
    }
    mostrarError(caja);
  };
  video.addEventListener('error', () => {
    console.error('capsule video element error', { code: video.error?.code, src: video.src });
    fallar(true);
  });
  api?.on(Hls.Events.ERROR, (_evento, datos) => {
    if (!datos.fatal) return;
    console.error('capsule video failed', { type: datos.type, details: datos.details, src: video.src });
    fallar(datos.type === Hls.ErrorTypes.MEDIA_ERROR);
  });
}

function recordarEleccion(caja: HTMLElement, video: VideoHls): void {
  const menu = caja.querySelector<MediaRenditionMenu>('media-rendition-menu');
  // 'change' on the menu only comes from the person picking an item, not from ABR switches.
  menu?.addEventListener('change', () => {
    const valor = menu.value;
    const api = video.api;
    if (valor === 'auto') {
      // hls-video-element skips the switch back to automatic when nothing is buffered ahead
      // (its nextLevel is already -1), which would leave hls.js locked on the old level.
      if (api && !api.autoLevelEnabled) api.loadLevel = -1;
      return guardarCalidad('auto');
    }
    const nivel = valor ? api?.levels[Number(valor)] : undefined;
    if (nivel) guardarCalidad(nivel.height);
  });
}

/**
 * The page preloads the low rung's first segment with the HTML (Reproductor.astro): hls.js then
 * gets it from memory almost at once and would take that for the link's speed, jumping to the
 * top rung on a 1.6 Mbps connection. The preload's own timing says how long the download really
 * took; the segment's load times are set back to it before hls.js samples them (when the segment
 * is buffered, after this event).
 */
function medirPrecarga(api: ApiHls, Hls: ClaseHls): void {
  api.once(Hls.Events.FRAG_LOADED, (_evento, { frag }) => {
    const precarga = performance
      .getEntriesByName(frag.url)
      .find((e): e is PerformanceResourceTiming => e instanceof PerformanceResourceTiming && e.initiatorType === 'link');
    if (!precarga) return;
    const { loading } = frag.stats;
    const descarga = precarga.responseEnd - precarga.requestStart;
    if (!(descarga > loading.end - loading.start)) return;
    loading.start = loading.end - descarga;
    loading.first = loading.start + Math.max(precarga.responseStart - precarga.requestStart, 0);
  });
}

/** Connects each player's hls.js as soon as it exists, before the manifest has arrived. */
function conectarVideos(cajas: HTMLElement[], videos: (VideoHls | null)[], ahorros: EstadoAhorro[], codigo: Codigo): void {
  const { Hls } = codigo;
  cajas.forEach((caja, i) => {
    const video = videos[i];
    const ahorro = ahorros[i];
    if (!video || !ahorro) return;
    // No api where hls.js is unsupported (iOS Safari): the browser plays HLS natively.
    const api = video.api;
    vigilarErrores(caja, video, api, Hls);
    if (!api) return;
    codigo.aplicarTope(api, Hls, () => ahorroActivo(ahorro));
    aplicarCalidad(video, api, Hls, ahorroActivo(ahorro));
    medirPrecarga(api, Hls);
  });
}

/** At most this long the player code waits for the posters (a poster that never loads does not hold it). */
const ESPERA_POSTER_MS = 1_500;

/** Resolves after the browser has painted a frame: the rAF callback runs before a paint, the timer after it. */
const trasPintar = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Resolves once `img` is decoded and painted, or has failed. */
async function posterPintado(img: HTMLImageElement): Promise<void> {
  if (!img.complete) {
    await new Promise<void>((resolve) => {
      img.addEventListener('load', () => resolve(), { once: true });
      img.addEventListener('error', () => resolve(), { once: true });
    });
  }
  await img.decode().catch(() => undefined);
  await trasPintar();
}

/**
 * Resolves once the posters have been painted (or failed), or after ESPERA_POSTER_MS. The poster
 * is the page's largest paint: on a slow link the 130 kB player chunk would otherwise share the
 * bandwidth with it and push the paint back by a second or more. Painted, not only loaded: on a
 * fast machine the load event comes a frame before the paint, and a request started in between
 * still competes with the paint in Lighthouse's simulation of a slow link.
 */
function postersPintados(cajas: HTMLElement[]): Promise<void> {
  const posters = cajas
    .map((caja) => caja.querySelector<HTMLImageElement>('img.reproductor-poster'))
    .filter((img): img is HTMLImageElement => img !== null);
  if (posters.length === 0) return Promise.resolve();
  return Promise.race([
    Promise.all(posters.map(posterPintado)).then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, ESPERA_POSTER_MS)),
  ]);
}

export async function iniciarReproductores(): Promise<void> {
  const cajas = [...document.querySelectorAll<HTMLElement>('[data-reproductor]')];
  if (cajas.length === 0) return;
  const videos = cajas.map((caja) => caja.querySelector<VideoHls>('hls-video'));
  const ahorros = cajas.map(estadoAhorro);
  // Read by hls-video-element when it upgrades, so set before the import.
  videos.forEach((video, i) => {
    const ahorro = ahorros[i];
    if (!video || !ahorro) return;
    const activo = ahorroActivo(ahorro);
    video.config = configHls(activo);
    // The page says so already when the server knew (the preference, Save-Data, client hints);
    // the browser's connection and this device's last switch only show here.
    video.setAttribute('preload', activo ? 'none' : 'metadata');
  });
  await postersPintados(cajas);
  let codigo: Codigo;
  try {
    // Fetched together, each evaluated in a task of its own (decision 0086); the elements of both
    // are defined only after both have run (definirPorPartes).
    [codigo] = await Promise.all([import('./codigo-reproductor.ts'), import('./controles-reproductor.ts')]);
  } catch (error) {
    console.error('capsule player code failed to load', error);
    for (const caja of cajas) mostrarError(caja);
    return;
  }
  // Before media-chrome upgrades the quality menu, which draws its items with it.
  cajas.forEach((caja, i) => {
    const video = videos[i];
    if (video) codigo.mostrarCostes(caja, video);
  });
  // hls.js's listeners go on as soon as the video element exists, before the manifest arrives.
  await codigo.definirPorPartes('hls-video', () => conectarVideos(cajas, videos, ahorros, codigo));
  cajas.forEach((caja, i) => {
    const video = videos[i];
    const ahorro = ahorros[i];
    if (!video || !ahorro) return;
    recordarEleccion(caja, video);
    codigo.iniciarInterruptor(caja, video, ahorro);
  });
}

/**
 * Makes the capsule players of a page live (Reproductor.astro). Plain module, no React: the page
 * only carries this loader; media-chrome and hls-video-element (with hls.js) are imported on
 * demand, so they are a lazy chunk outside the page's JS budget.
 *
 * - Playback starts on the lowest rung (teachers on slow mobile data), then adapts.
 * - A quality picked in the menu is remembered for every capsule (closest rung not above it).
 * - A stream that cannot load shows SPEC.md's message in the player box.
 */
import type { HlsVideoElement } from 'hls-video-element';
import type { MediaRenditionMenu } from 'media-chrome/menu';

const MENSAJE_ERROR = 'Hubo un error, no se pudo cargar el video:(';
const CLAVE_CALIDAD = 'ed-calidad-video';

/** A remembered height in pixels (360, 720...) or 'auto'. */
type Calidad = number | 'auto';

interface Nivel {
  height: number;
  bitrate: number;
}

/** The part of media-tracks' rendition list we use (hls-video-element mirrors hls.js levels in it). */
interface ListaCalidades extends EventTarget {
  selectedIndex: number;
}

type VideoHls = HlsVideoElement & { videoRenditions?: ListaCalidades };
type ApiHls = NonNullable<HlsVideoElement['api']>;
type ClaseHls = typeof import('hls-video-element').Hls;

function leerCalidad(guardada: string | null): Calidad {
  const alto = Number(guardada);
  return Number.isInteger(alto) && alto > 0 ? alto : 'auto';
}

/** Index of the best level not taller than `alto`; the lowest level when all are taller. */
function elegirNivel(niveles: readonly Nivel[], alto: number): number {
  let elegido = -1;
  let menor = 0;
  niveles.forEach((nivel, i) => {
    const actual = niveles[elegido];
    if (
      nivel.height <= alto &&
      (!actual || nivel.height > actual.height || (nivel.height === actual.height && nivel.bitrate > actual.bitrate))
    ) {
      elegido = i;
    }
    const masBajo = niveles[menor];
    if (masBajo && nivel.bitrate < masBajo.bitrate) menor = i;
  });
  return elegido === -1 ? menor : elegido;
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

/** Applies the remembered quality as soon as hls.js knows the levels (before the first segment). */
function aplicarCalidad(video: VideoHls, api: ApiHls, Hls: ClaseHls): void {
  const calidad = calidadGuardada();
  if (calidad === 'auto') return;
  const elegir = () => {
    const nivel = elegirNivel(api.levels, calidad);
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

/** Connects each player's hls.js as soon as it exists, before the manifest has arrived. */
function conectarVideos(cajas: HTMLElement[], videos: (VideoHls | null)[], Hls: ClaseHls): void {
  cajas.forEach((caja, i) => {
    const video = videos[i];
    if (!video) return;
    // No api where hls.js is unsupported (iOS Safari): the browser plays HLS natively.
    const api = video.api;
    vigilarErrores(caja, video, api, Hls);
    if (api) aplicarCalidad(video, api, Hls);
  });
}

export async function iniciarReproductores(): Promise<void> {
  const cajas = [...document.querySelectorAll<HTMLElement>('[data-reproductor]')];
  if (cajas.length === 0) return;
  const videos = cajas.map((caja) => caja.querySelector<VideoHls>('hls-video'));
  // Read by hls-video-element when it upgrades, so it must be set before the import.
  for (const video of videos) {
    if (video) video.config = { startLevel: 0, capLevelToPlayerSize: true };
  }
  const reproduccion = import('hls-video-element').then(({ Hls }) => conectarVideos(cajas, videos, Hls));
  // Spanish must be registered and chosen before any control renders its labels: some (the
  // quality button) never re-read the language set later by <media-controller lang="es">.
  const controles = Promise.all([import('media-chrome/utils/i18n'), import('media-chrome/lang/es')]).then(([i18n, { Es }]) => {
    // A control's name must contain the text it shows (WCAG 2.5.3): the rate button shows '1.5x'.
    i18n.addTranslation('es', { ...Es, 'Playback rate {playbackRate}': 'Velocidad de reproducción {playbackRate}x' });
    i18n.setLanguage('es');
    return Promise.all([import('media-chrome'), import('media-chrome/menu')]);
  });
  try {
    await Promise.all([reproduccion, controles]);
  } catch (error) {
    console.error('capsule player code failed to load', error);
    for (const caja of cajas) mostrarError(caja);
    return;
  }
  cajas.forEach((caja, i) => {
    const video = videos[i];
    if (video) recordarEleccion(caja, video);
  });
}

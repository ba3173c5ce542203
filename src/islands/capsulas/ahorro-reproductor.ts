/**
 * 'Ahorro de datos' inside the capsule player (issue 20): the 360p ceiling on hls.js's automatic
 * choice, the switch in the control bar that turns it on or off for this page and saves it as the
 * person's preference, and the cost of each quality in the menu. Part of the player's lazy chunk
 * (codigo-reproductor.ts); the API client comes only when the switch is used.
 */
import type { HlsVideoElement } from 'hls-video-element';
import { ahorroActivo, type EstadoAhorro, recordarAhorro } from './ahorro-datos.ts';
import { ALTO_AHORRO, conCoste, nivelTope } from './calidades.ts';

type ApiHls = NonNullable<HlsVideoElement['api']>;
type ClaseHls = typeof import('hls-video-element').Hls;

/**
 * Keeps hls.js's automatic choice at or below 360p while `activo()` (the size cap is off then,
 * see reproductor.ts), and lets the player's size decide again when it is not. A rung the person
 * picks in the menu is theirs: hls.js plays it whatever the ceiling.
 */
export function aplicarTope(api: ApiHls, Hls: ClaseHls, activo: () => boolean): void {
  const aplicar = () => {
    if (activo()) {
      api.capLevelToPlayerSize = false;
      api.autoLevelCapping = nivelTope(api.levels, ALTO_AHORRO);
    } else {
      api.autoLevelCapping = -1;
      api.capLevelToPlayerSize = true;
    }
  };
  // hls.js forgets the ceiling when it loads the source, before the levels are known.
  api.on(Hls.Events.MANIFEST_PARSED, aplicar);
  if (api.levels.length > 0) aplicar();
  topes.set(api, aplicar);
}

const topes = new WeakMap<ApiHls, () => void>();

/** Saves the preference in the person's account; a failure leaves it on this device only. */
async function guardarPreferencia(idUsuario: number, valor: boolean): Promise<void> {
  if (!idUsuario) return;
  try {
    const { api } = await import('../../lib/api/client');
    const { error } = await api.PUT('/api/usuarios/{id}/preferencias/', {
      params: { path: { id: idUsuario } },
      body: { ahorro_datos: valor },
    });
    if (error) console.error('data saver preference not saved', error);
  } catch (error) {
    console.error('data saver preference not saved', error);
  }
}

/**
 * The switch in the control bar (Reproductor.astro): pressed while the data saver is on. Turning
 * it on also drops a quality above 360p back to automatic; turning it off lifts the ceiling.
 */
export function iniciarInterruptor(caja: HTMLElement, video: HlsVideoElement, estado: EstadoAhorro): void {
  const boton = caja.querySelector<HTMLButtonElement>('[data-reproductor-ahorro]');
  if (!boton) return;
  const pintar = () => boton.setAttribute('aria-pressed', String(ahorroActivo(estado)));
  pintar();
  boton.hidden = false;
  boton.addEventListener('click', () => {
    const valor = !ahorroActivo(estado);
    // Off on this page even when the connection asked for it; the account keeps the person's choice.
    estado.preferencia = valor;
    estado.red = estado.red && valor;
    pintar();
    if (valor && video.api) bajarSiHaceFalta(video);
    const api = video.api;
    if (api) topes.get(api)?.();
    recordarAhorro(valor);
    void guardarPreferencia(estado.idUsuario, valor);
  });
}

/** A rung above the ceiling picked before the data saver was turned on goes back to automatic. */
function bajarSiHaceFalta(video: HlsVideoElement): void {
  const api = video.api;
  if (!api || api.autoLevelEnabled) return;
  const nivel = api.levels[api.manualLevel];
  if (!nivel || nivel.height <= ALTO_AHORRO) return;
  const lista = (video as HlsVideoElement & { videoRenditions?: { selectedIndex: number } }).videoRenditions;
  if (lista) lista.selectedIndex = -1;
  api.loadLevel = -1;
}

/** The menu item's text media-chrome would write for a rung ('234p'), then its cost. */
interface MenuCalidades extends HTMLElement {
  formatRendition?: (rendicion: { id?: string; bitrate?: number }, opciones?: object) => string;
}

/**
 * Adds each rung's cost to the quality menu's items ('234p · ~1,9 MB/min'). Set on the element
 * before media-chrome upgrades it (it keeps an own property), so the first list drawn has them.
 * The cost is the rung's average rate (AVERAGE-BANDWIDTH), what a minute of it really moves.
 */
export function mostrarCostes(caja: HTMLElement, video: HlsVideoElement): void {
  const menu = caja.querySelector<MenuCalidades>('media-rendition-menu');
  if (!menu) return;
  menu.formatRendition = function (this: MenuCalidades, rendicion, opciones) {
    const clase = this.constructor as unknown as { formatRendition(r: object, o?: object): string };
    const texto = clase.formatRendition(rendicion, opciones);
    const nivel = video.api?.levels[Number(rendicion.id)];
    return conCoste(texto, nivel?.averageBitrate || rendicion.bitrate);
  };
}

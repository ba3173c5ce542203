/**
 * The captions choice of the capsule player (issue 20), remembered for every capsule like the
 * quality (reproductor.ts): the language picked in media-chrome's captions menu, or that they are
 * off. Runs with the page's small loader, before the player code: the <track> of the remembered
 * language gets `default`, so hls-video-element copies it that way and the browser shows it from
 * the first cue. Nothing remembered: captions start off.
 */
const CLAVE_SUBTITULOS = 'ed-subtitulos';
const APAGADOS = 'no';

/**
 * The language in a value of media-chrome's captions menu ('cc:es:Espa%C3%B1ol'); APAGADOS for
 * its 'Apagado' item ('off', or nothing).
 */
export function idiomaElegido(valor: string | null | undefined): string {
  const [tipo, idioma] = (valor ?? '').split(':');
  return (tipo === 'cc' || tipo === 'sb') && idioma ? idioma : APAGADOS;
}

// Without storage (private modes, policies) the choice is simply not remembered.
function leer(): string | null {
  try {
    return localStorage.getItem(CLAVE_SUBTITULOS);
  } catch {
    return null;
  }
}

function guardar(valor: string): void {
  try {
    localStorage.setItem(CLAVE_SUBTITULOS, valor);
  } catch {
    // See leer.
  }
}

/**
 * The cues are drawn in hls-video-element's shadow <video>, which the page's stylesheet reaches
 * only as a part (`hls-video::part(video)::cue`, src/styles/reproductor.css); the element does
 * not name it, so it is named once the element is live.
 */
async function nombrarVideo(video: Element): Promise<void> {
  await customElements.whenDefined('hls-video');
  video.shadowRoot?.querySelector('video')?.setAttribute('part', 'video');
}

/** Marks the remembered language's track and listens to the menu of each player on the page. */
export function recordarSubtitulos(cajas: Iterable<HTMLElement>): void {
  const recordado = leer();
  for (const caja of cajas) {
    const pistas = [...caja.querySelectorAll('track')];
    if (pistas.length === 0) continue;
    const pista = recordado && recordado !== APAGADOS ? pistas.find((p) => p.srclang === recordado) : undefined;
    pista?.setAttribute('default', '');
    const video = caja.querySelector('hls-video');
    if (video) void nombrarVideo(video);
    const menu = caja.querySelector('media-captions-menu');
    // 'change' comes only from the person picking an item (media-chrome's own updates do not send it).
    menu?.addEventListener('change', () => guardar(idiomaElegido(Reflect.get(menu, 'value'))));
  }
}

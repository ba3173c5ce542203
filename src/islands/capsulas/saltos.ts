/**
 * Going to a moment of the capsule's video (issue 20): a line of 'Ver transcripción' seeks there
 * and plays, and a link with `?t=192` (a search result's 'mencionado en el minuto 3:12') opens the
 * capsule at that second. Works before the player code has arrived: the seek waits for the
 * video's metadata (with the data saver that is after the person's play).
 */
import { segundoDe } from '../../lib/format/momento';

const video = () => document.querySelector<HTMLVideoElement>('[data-reproductor] hls-video');

async function irA(segundo: number, reproducir: boolean): Promise<void> {
  const elemento = video();
  if (!elemento) return;
  await customElements.whenDefined('hls-video');
  const fijar = () => {
    elemento.currentTime = segundo;
  };
  if (elemento.readyState >= HTMLMediaElement.HAVE_METADATA) fijar();
  else elemento.addEventListener('loadedmetadata', fijar, { once: true });
  if (reproducir) await elemento.play().catch(() => undefined);
}

/** The page's `?t=`: the video starts there. */
export function saltoInicial(): void {
  const segundo = segundoDe(new URLSearchParams(window.location.search).get('t'));
  if (segundo !== null && segundo > 0) void irA(segundo, false);
}

/**
 * The transcript's lines are links to `?t=N` (they work without this script too, as a reload at
 * that second): here they seek in place, play, and bring the player into view.
 */
export function enlazarTranscripcion(): void {
  document.addEventListener('click', (evento) => {
    if (evento.defaultPrevented || evento.button !== 0 || evento.metaKey || evento.ctrlKey || evento.shiftKey || evento.altKey) return;
    const enlace = evento.target instanceof Element ? evento.target.closest<HTMLAnchorElement>('a[data-segundo]') : null;
    const segundo = segundoDe(enlace?.dataset.segundo);
    if (!enlace || segundo === null || !video()) return;
    evento.preventDefault();
    document.querySelector('[data-reproductor]')?.scrollIntoView({ block: 'nearest' });
    void irA(segundo, true);
  });
}

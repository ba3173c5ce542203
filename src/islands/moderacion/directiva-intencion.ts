/**
 * `client:intencion` (registered in astro.config.mjs): hydrates an island when the person reaches
 * for it (the pointer over it, focus in it, a touch or a press), so a page whose only island is a
 * rarely used button (a profile's 'Denunciar') does not load React on every visit. The island's
 * HTML works as drawn until then: a press that comes before it is live is replayed once it is.
 */
import type { ClientDirective } from 'astro';

const SENALES = ['pointerover', 'focusin', 'touchstart', 'click'] as const;

const directiva: ClientDirective = (load, _opciones, isla) => {
  let pulsado: HTMLElement | null = null;
  const recordar = (evento: Event) => {
    if (evento.target instanceof HTMLElement) pulsado = evento.target;
  };
  isla.addEventListener('click', recordar, true);

  const despertar = async () => {
    for (const senal of SENALES) isla.removeEventListener(senal, despertar);
    const hidratar = await load();
    await hidratar();
    isla.removeEventListener('click', recordar, true);
    pulsado?.click();
  };
  for (const senal of SENALES) isla.addEventListener(senal, despertar, { passive: true });
};

export default directiva;

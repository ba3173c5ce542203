/**
 * The player's custom elements, defined one per task instead of all in the task that evaluates
 * the player chunk: defining an element upgrades every instance on the page (shadow root,
 * template, styles), and media-chrome's dozen controls plus hls-video in one go were a single
 * ~300 ms task at 4x CPU throttling, blocking input on old computers (Lighthouse's TBT).
 *
 * Imported first by both player chunks (codigo-reproductor.ts, controles-reproductor.ts), so
 * every `customElements.define` of either is held here, whichever runs first; `definirPorPartes`,
 * called once both have run, restores the registry's own define and replays them in order,
 * yielding to the browser between them. A definition the page already has is skipped, as the
 * libraries themselves do.
 */
type Definicion = Parameters<CustomElementRegistry['define']>;

const retenidas: Definicion[] = [];
const definir = customElements.define.bind(customElements);
customElements.define = (...definicion: Definicion) => {
  retenidas.push(definicion);
};

const ceder = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Defines the held elements, `primero` first (the video, so it starts loading at once). */
export async function definirPorPartes(primero: string, alDefinirPrimero: () => void): Promise<void> {
  customElements.define = definir;
  // The chunks' evaluations were long tasks of their own: the first upgrade waits for the next one.
  await ceder();
  const orden = [...retenidas.filter(([nombre]) => nombre === primero), ...retenidas.filter(([nombre]) => nombre !== primero)];
  retenidas.length = 0;
  for (const [nombre, clase, opciones] of orden) {
    if (!customElements.get(nombre)) definir(nombre, clase, opciones);
    if (nombre === primero) {
      // hls-video-element makes its hls.js instance a microtask after the upgrade.
      await Promise.resolve();
      await Promise.resolve();
      alDefinirPrimero();
    }
    await ceder();
  }
}

/**
 * The rotating landscapes behind the account screens. They start only after the page has loaded
 * and the browser is idle, are skipped when the person asked to save data, and stay still when
 * they prefer reduced motion.
 */
interface ConexionRed {
  saveData?: boolean;
}

const INTERVALO_MS = 8000;

function cargar(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const imagen = new Image();
    imagen.onload = () => resolve(true);
    imagen.onerror = () => resolve(false);
    imagen.src = url;
  });
}

export function iniciarFondos(): void {
  const contenedor = document.querySelector<HTMLElement>('.acceso-fondo');
  if (contenedor) rotarFondos(contenedor, JSON.parse(contenedor.dataset.fondos ?? '[]'));
}

function rotarFondos(contenedor: HTMLElement, urls: string[]): void {
  const conexion: ConexionRed | undefined = Reflect.get(navigator, 'connection');
  if (conexion?.saveData || urls.length === 0) return;
  const quieto = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const capas = [document.createElement('div'), document.createElement('div')];
  contenedor.append(...capas);
  let turno = Math.floor(Math.random() * urls.length);
  let capa = 0;

  async function siguiente() {
    const url = urls[turno++ % urls.length];
    if (url && (await cargar(url))) {
      const [visible, oculta] = capa === 0 ? [capas[1], capas[0]] : [capas[0], capas[1]];
      capa = 1 - capa;
      if (visible) {
        visible.style.backgroundImage = `url("${url}")`;
        visible.classList.add('visible');
      }
      oculta?.classList.remove('visible');
    }
    if (!quieto) setTimeout(siguiente, INTERVALO_MS);
  }

  const iniciar = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => void siguiente(), { timeout: 3000 });
    else setTimeout(() => void siguiente(), 300);
  };
  if (document.readyState === 'complete') iniciar();
  else window.addEventListener('load', iniciar, { once: true });
}

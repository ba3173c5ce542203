/**
 * Keeps the 'Capsulas procesando' panel of /capsulas/ current (no React): while one of the
 * author's videos is being processed it asks the server every 10 s, and when the answer differs
 * from what the page shows (a video is ready, failed or was deleted) it reloads, so the finished
 * capsule appears in the list and a failure shows its reason. The panel loads this module only
 * when it is on the page.
 */
import { api } from '../../lib/api/client';

const INTERVALO_MS = 10_000;

/** 'id:estado' of each capsule, in the server's order: two lists differ when their texts do. */
const firma = (capsulas: readonly { id?: number | string | undefined; estado?: string | undefined }[]) =>
  capsulas.map((c) => `${c.id}:${c.estado}`).join(',');

export function vigilarProcesando(panel: HTMLElement): void {
  const usuario = Number(panel.dataset.usuario);
  const items = Array.from(panel.querySelectorAll<HTMLElement>('[data-id]'), ({ dataset }) => ({ id: dataset.id, estado: dataset.estado }));
  if (!usuario || !items.some((c) => c.estado === 'procesando')) return;
  const actual = firma(items);

  const esperar = () => window.setTimeout(preguntar, INTERVALO_MS);

  async function preguntar(): Promise<void> {
    // A hidden tab waits; someone typing a search is not interrupted by a reload.
    if (document.hidden || document.activeElement?.closest('form')) {
      esperar();
      return;
    }
    try {
      const { data } = await api.GET('/api/capsulas/procesando', { params: { query: { usuario_id: usuario } } });
      if (data && firma(data.capsulas) !== actual) {
        window.location.reload();
        return;
      }
    } catch {
      // Offline for a moment: ask again at the next turn.
    }
    esperar();
  }

  esperar();
}

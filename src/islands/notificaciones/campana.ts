/**
 * The bell in the top bar (issue 17): the server draws it with the unread count known when the
 * page was rendered; this refreshes the count when the window regains focus and every minute, with
 * a plain fetch and the access cookie (`ed_access`, ACCESS_COOKIE of src/lib/api/cookies.ts, not
 * imported so the shell's script stays one small chunk). The cookie lives as long as its token (15
 * minutes): once it is gone, the bell renews the session with the API client's renewal (which asks
 * only when the session marker says there is one), so a page left open keeps counting.
 */
export const etiquetaCampana = (n: number) => `Notificaciones: ${n ? n : 'ninguna'} sin leer`;

/**
 * A new access token, or undefined without a session: the islands' one renewal
 * (`renovarSesion`, shared with any island renewing at the same moment), loaded only when needed.
 */
const renovar = async () => (await (await import('../../lib/api/client')).renovarSesion())?.access;

export function iniciarCampana(): void {
  const campana = document.querySelector<HTMLAnchorElement>('a.campana');
  const contador = campana?.lastElementChild as HTMLElement | null | undefined;
  if (!campana || !contador) return;
  const actualizar = async () => {
    if (document.hidden) return;
    try {
      const guardado = /(?:^|; )ed_access=([^;]+)/.exec(document.cookie)?.[1];
      const token = guardado ? decodeURIComponent(guardado) : await renovar();
      if (!token) return;
      const res = await fetch('/api/notificaciones/?no_leidas=true', { headers: { authorization: `Bearer ${token}` } });
      const n: number = res.ok ? (await res.json()).no_leidas : Number.NaN;
      if (Number.isNaN(n)) return;
      contador.textContent = n > 99 ? '99+' : String(n);
      contador.hidden = !n;
      campana.setAttribute('aria-label', etiquetaCampana(n));
    } catch {
      // Offline: the count stays as it was.
    }
  };
  addEventListener('focus', actualizar);
  setInterval(actualizar, 60_000);
}

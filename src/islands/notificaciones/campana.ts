/**
 * The bell in the top bar (issue 17): the server draws it with the unread count known when the
 * page was rendered; this refreshes the count when the window regains focus and every minute, with
 * a plain fetch and the access cookie (`ed_access`, ACCESS_COOKIE of src/lib/api/cookies.ts, not
 * imported so the shell's script stays one small chunk). Without a live access token it waits:
 * the next page load renews the session.
 */
export const etiquetaCampana = (n: number) => `Notificaciones: ${n ? n : 'ninguna'} sin leer`;

export function iniciarCampana(): void {
  const campana = document.querySelector<HTMLAnchorElement>('a.campana');
  const contador = campana?.lastElementChild as HTMLElement | null | undefined;
  if (!campana || !contador) return;
  const actualizar = async () => {
    const token = /(?:^|; )ed_access=([^;]+)/.exec(document.cookie)?.[1];
    if (!token || document.hidden) return;
    try {
      const res = await fetch('/api/notificaciones/?no_leidas=true', { headers: { authorization: `Bearer ${decodeURIComponent(token)}` } });
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

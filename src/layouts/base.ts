/** docs/SPEC.md section 9: any stored service worker is unregistered on load. */
export function quitarServiceWorkers(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .getRegistrations()
    .then((registros) => Promise.all(registros.map((r) => r.unregister())))
    .catch((error: unknown) => console.warn('service worker cleanup failed', error));
}

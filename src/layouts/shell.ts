/**
 * The shell's plain script (no React on the home page): side menu, sign-out (also in the other
 * open tabs) and the notifications region.
 */
import { $notificaciones, descartar, type Notificacion, notificar, visibles } from '../lib/stores/notifications';
import { $sesion, cerrarSesion, escucharCierreEnOtrasPestanas } from '../lib/stores/session';

function iniciarMenu(): void {
  const boton = document.querySelector<HTMLButtonElement>('.alternar');
  const menu = document.getElementById('menu-lateral');
  if (!boton || !menu) return;
  const abierto = () => document.body.classList.contains('abierto');
  const alternar = (abrir: boolean) => {
    document.body.classList.toggle('abierto', abrir);
    boton.setAttribute('aria-expanded', String(abrir));
    if (abrir) menu.querySelector('a')?.focus();
    else if (menu.contains(document.activeElement)) boton.focus();
  };
  boton.addEventListener('click', () => alternar(!abierto()));
  // docs/SPEC.md section 2: the menu collapses on selection.
  menu.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) alternar(false);
  });
  document.querySelector('.velo')?.addEventListener('click', () => alternar(false));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && abierto()) alternar(false);
  });
}

function iniciarSalida(): void {
  const boton = document.querySelector<HTMLButtonElement>('#cerrar-sesion');
  boton?.addEventListener('click', async () => {
    boton.disabled = true;
    boton.setAttribute('aria-busy', 'true');
    const cerrada = await import('../lib/api/client').then(({ api }) => cerrarSesion(api)).catch(() => false);
    if (cerrada) return window.location.assign('/ingresar/');
    boton.disabled = false;
    boton.removeAttribute('aria-busy');
    notificar('No se pudo cerrar la sesión. Revisa tu conexión e inténtalo nuevamente.', 'error');
  });
  escucharCierreEnOtrasPestanas(() => {
    const aqui = window.location.pathname + window.location.search;
    window.location.assign(`/ingresar/?siguiente=${encodeURIComponent(aqui)}`);
  });
}

function nodoNotificacion(n: Notificacion): HTMLElement {
  const nodo = document.createElement('div');
  nodo.className = `notificacion ${n.tipo}`;
  nodo.dataset.id = String(n.id);
  nodo.setAttribute('role', n.tipo === 'error' ? 'alert' : 'status');
  const texto = document.createElement('p');
  texto.textContent = n.texto;
  const cerrar = document.createElement('button');
  cerrar.type = 'button';
  cerrar.setAttribute('aria-label', 'Cerrar notificación');
  cerrar.textContent = '×';
  cerrar.addEventListener('click', () => descartar(n.id));
  nodo.append(texto, cerrar);
  return nodo;
}

/** Keeps the nodes already shown (so screen readers do not hear them twice) and adds the new ones. */
function iniciarNotificaciones(): void {
  const region = document.querySelector<HTMLElement>('.notificaciones');
  if (!region) return;
  $notificaciones.subscribe((cola) => {
    const mostrar = visibles(cola);
    const ids = new Set(mostrar.map((n) => String(n.id)));
    for (const nodo of Array.from(region.children)) {
      if (nodo instanceof HTMLElement && !ids.has(nodo.dataset.id ?? '')) nodo.remove();
    }
    const mostrados = new Set(Array.from(region.children, (nodo) => (nodo instanceof HTMLElement ? nodo.dataset.id : '')));
    for (const n of mostrar) if (!mostrados.has(String(n.id))) region.append(nodoNotificacion(n));
  });
}

/**
 * The top bar's photo follows the session store: an island that changes the signed-in user's
 * photo (the profile editor) updates $sesion, and the new photo shows without a reload.
 */
function iniciarFotoPerfil(): void {
  const enlace = document.querySelector<HTMLAnchorElement>('.barra .perfil');
  $sesion.listen(({ usuario }) => {
    const foto = usuario?.foto_perfil;
    const actual = enlace?.querySelector('img');
    if (!enlace || !foto || actual?.getAttribute('src') === foto) return;
    const img = actual ?? Object.assign(document.createElement('img'), { alt: '', width: 30, height: 30 });
    img.src = foto;
    if (!actual) enlace.querySelector('.avatar')?.replaceWith(img);
  });
}

export function iniciarShell(): void {
  iniciarMenu();
  iniciarSalida();
  iniciarNotificaciones();
  iniciarFotoPerfil();
}

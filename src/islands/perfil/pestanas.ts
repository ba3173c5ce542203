/**
 * /perfil/editar's plain script. Without scripting every section shows, one under the other, and
 * the tab links jump to them; with it the vertical tabs show one section at a time (the URL's
 * #hash says which, so a reload or a shared link keeps it), and the carousels get their arrows.
 * perfil.css already lays the tabs out and shows the #hash's section before this runs, so taking
 * over (`.con-pestanas`) moves nothing on screen.
 */
function iniciarPestanas(): void {
  const nav = document.querySelector<HTMLElement>('.pestanas-verticales');
  if (!nav) return;
  const enlaces = Array.from(nav.querySelectorAll<HTMLAnchorElement>('a[href^="#"]'));
  const paneles = enlaces.map((a) => document.getElementById(a.hash.slice(1))).filter((p): p is HTMLElement => p !== null);
  if (paneles.length === 0) return;
  document.querySelector('.informacion')?.classList.add('con-pestanas');

  const mostrar = (id: string, enfocar: boolean) => {
    const panel = paneles.find((p) => p.id === id) ?? paneles[0];
    if (!panel) return;
    for (const p of paneles) p.hidden = p !== panel;
    for (const a of enlaces) {
      if (a.hash === `#${panel.id}`) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    }
    if (enfocar) panel.querySelector<HTMLElement>('h2')?.focus();
  };

  for (const p of paneles) p.querySelector('h2')?.setAttribute('tabindex', '-1');
  nav.addEventListener('click', (event) => {
    const enlace = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="#"]') : null;
    if (!enlace) return;
    event.preventDefault();
    history.replaceState(null, '', enlace.hash);
    mostrar(enlace.hash.slice(1), true);
  });
  window.addEventListener('hashchange', () => mostrar(location.hash.slice(1), false));
  mostrar(location.hash.slice(1), false);
}

function iniciarCarruseles(): void {
  for (const flechas of Array.from(document.querySelectorAll<HTMLElement>('.carrusel-flechas'))) {
    flechas.hidden = false;
    flechas.addEventListener('click', (event) => {
      const boton = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-carrusel]') : null;
      const pista = boton ? document.getElementById(boton.dataset.carrusel ?? '') : null;
      if (!boton || !pista) return;
      const reducido = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      pista.scrollBy({ left: Number(boton.dataset.paso) * pista.clientWidth, behavior: reducido ? 'auto' : 'smooth' });
    });
  }
}

export function iniciarEdicionPerfil(): void {
  iniciarPestanas();
  iniciarCarruseles();
}

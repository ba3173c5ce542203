/**
 * The directory's plain script (no React on /comunidad/): the GET form and the page links work
 * without it; with it, the URL carries only the filters in use, the page size applies when
 * chosen, and 10 skeletons (SPEC.md section 9) stand in for the results while the next ones load.
 */
export const ESQUELETOS = 10;

function esqueletos(): HTMLUListElement {
  const lista = document.createElement('ul');
  lista.className = 'docentes esqueletos';
  lista.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < ESQUELETOS; i++) {
    const item = document.createElement('li');
    item.innerHTML =
      '<div class="docente esqueleto"><header><span class="hueso redondo"></span><div><span class="hueso"></span><span class="hueso corto"></span></div></header><span class="hueso"></span><span class="hueso boton"></span></div>';
    lista.append(item);
  }
  return lista;
}

export function iniciarBuscador(): void {
  const form = document.querySelector<HTMLFormElement>('form.buscador');
  const resultados = document.querySelector<HTMLElement>('.resultados');
  if (!form || !resultados) return;
  const original = Array.from(resultados.children);

  const cargando = () => {
    resultados.setAttribute('aria-busy', 'true');
    const titulo = resultados.querySelector('h2');
    resultados.replaceChildren(...(titulo ? [titulo] : []), esqueletos());
  };

  form.addEventListener('submit', () => {
    // Defaults and placeholders stay out of the URL: '/comunidad/?area=3' rather than every field.
    for (const campo of Array.from(form.elements)) {
      if (!(campo instanceof HTMLInputElement || campo instanceof HTMLSelectElement) || !campo.name) continue;
      const valor = campo.value.trim();
      if (valor === '' || valor === '-1' || (campo.name === 'tamano_pagina' && valor === '10')) campo.disabled = true;
    }
    cargando();
  });
  form.querySelector<HTMLSelectElement>('#tamano_pagina')?.addEventListener('change', () => form.requestSubmit());

  resultados.addEventListener('click', (event) => {
    const enlace = event.target instanceof Element ? event.target.closest('.paginas a') : null;
    if (enlace && !(event instanceof MouseEvent && (event.ctrlKey || event.metaKey || event.shiftKey))) cargando();
  });

  // Back from the next page (back-forward cache): the results as they were, the fields usable.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    resultados.removeAttribute('aria-busy');
    resultados.replaceChildren(...original);
    for (const campo of Array.from(form.elements)) {
      if (campo instanceof HTMLInputElement || campo instanceof HTMLSelectElement) campo.disabled = false;
    }
  });
}

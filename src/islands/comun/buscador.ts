/**
 * The plain script of the searchable lists (directory, capsules, library, manuals; no React): the
 * GET form and the page links work without it; with it, the URL carries only the filters in use,
 * the order and page size apply when chosen, and 10 skeletons (docs/SPEC.md section 9) stand in for
 * the results while the next ones load.
 */
const ESQUELETOS = 10;

export interface OpcionesBuscador {
  /** The class of the results' list (the skeletons take its place and its layout). */
  claseLista: string;
  /** The inner HTML of one skeleton item, shaped like a card. */
  esqueleto: string;
}

function esqueletos({ claseLista, esqueleto }: OpcionesBuscador): HTMLUListElement {
  const lista = document.createElement('ul');
  lista.className = `${claseLista} esqueletos`;
  lista.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < ESQUELETOS; i++) {
    const item = document.createElement('li');
    item.innerHTML = esqueleto;
    lista.append(item);
  }
  return lista;
}

/** Defaults that stay out of the URL: '/capsulas/?area=3' rather than every field. */
const porDefecto = (nombre: string, valor: string) =>
  valor === '' || valor === '-1' || (nombre === 'tamano_pagina' && valor === '10') || (nombre === 'order' && valor === 'fecha');

export function iniciarBuscador(opciones: OpcionesBuscador): void {
  const form = document.querySelector<HTMLFormElement>('form.buscador');
  const resultados = document.querySelector<HTMLElement>('.resultados');
  if (!form || !resultados) return;
  const original = Array.from(resultados.children);

  const cargando = () => {
    resultados.setAttribute('aria-busy', 'true');
    const titulo = resultados.querySelector('h2');
    resultados.replaceChildren(...(titulo ? [titulo] : []), esqueletos(opciones));
  };

  form.addEventListener('submit', () => {
    for (const campo of Array.from(form.elements)) {
      if (!(campo instanceof HTMLInputElement || campo instanceof HTMLSelectElement) || !campo.name) continue;
      if (porDefecto(campo.name, campo.value.trim())) campo.disabled = true;
    }
    cargando();
  });
  for (const id of ['#tamano_pagina', '#order']) {
    form.querySelector<HTMLSelectElement>(id)?.addEventListener('change', () => form.requestSubmit());
  }

  resultados.addEventListener('click', (event) => {
    const enlace = event.target instanceof Element ? event.target.closest('.paginacion a') : null;
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

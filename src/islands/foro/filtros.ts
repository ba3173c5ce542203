/**
 * The forum lists' search forms, without React (the list pages have no island). Without
 * JavaScript the Buscar button submits the GET form and the server shows every message; with it:
 * - a change of order or page size searches at once (docs/SPEC.md section 4);
 * - a date change is checked against the four date rules of docs/SPEC.md section 5 (the shared
 *   schema module, loaded at the first change) and searches as soon as both dates are valid;
 * - empty fields are left out of the URL.
 */

/** Order and page-size selects marked `data-auto` submit their form when they change. */
export function buscarAlCambiar(form: HTMLFormElement): void {
  for (const select of form.querySelectorAll<HTMLSelectElement>('select[data-auto]')) {
    select.addEventListener('change', () => form.requestSubmit());
  }
  form.addEventListener('submit', (event) => {
    if (event.defaultPrevented) return;
    for (const campo of form.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (campo.value.trim() === '') campo.disabled = true;
    }
  });
  // Back from the results (bfcache): the fields left out must work again.
  window.addEventListener('pageshow', () => {
    for (const campo of form.querySelectorAll<HTMLInputElement>('input[disabled]')) campo.disabled = false;
  });
}

function mostrarMensaje(campo: HTMLInputElement, mensaje: string | undefined): void {
  const salida = document.getElementById(`${campo.id}-error`);
  if (salida) salida.textContent = mensaje ?? '';
  if (mensaje) campo.setAttribute('aria-invalid', 'true');
  else campo.removeAttribute('aria-invalid');
}

/** Call before `buscarAlCambiar` on the same form, so an invalid date stops the submit first. */
export function validarFechas(form: HTMLFormElement): void {
  const desde = form.querySelector<HTMLInputElement>('input[name="fecha_desde"]');
  const hasta = form.querySelector<HTMLInputElement>('input[name="fecha_hasta"]');
  if (!desde || !hasta) return;
  let validado = false;
  let espera: ReturnType<typeof setTimeout> | undefined;

  const revisar = async (): Promise<boolean> => {
    const reglas = await import('../../lib/validation/foro').catch(() => undefined);
    // Without the rules (connection lost), the server checks the dates and answers the messages.
    if (!reglas) return true;
    const { erroresFechas, hoyEnChile } = reglas;
    const errores = erroresFechas(desde.value || undefined, hasta.value || undefined, hoyEnChile());
    mostrarMensaje(desde, errores.fecha_desde?.[0]);
    mostrarMensaje(hasta, errores.fecha_hasta?.[0]);
    return !errores.fecha_desde && !errores.fecha_hasta;
  };
  const buscarSiValidas = async () => {
    if (!(await revisar())) return;
    validado = true;
    form.requestSubmit();
  };

  form.addEventListener('submit', (event) => {
    if (validado) return;
    event.preventDefault();
    void buscarSiValidas();
  });
  // Typing a date changes it once per digit: wait until the person pauses.
  const alCambiar = () => {
    clearTimeout(espera);
    espera = setTimeout(() => void buscarSiValidas(), 700);
  };
  desde.addEventListener('change', alCambiar);
  hasta.addEventListener('change', alCambiar);
}

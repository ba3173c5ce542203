/**
 * An island whose form arrives in its own chunk: react-hook-form and the form's code (12 to 15 kB
 * gzip) beside React would put the content, account and help form pages over the 90 kB budget
 * of docs/DESIGN.md.
 * The server renders the form whole (`cargado`, imported before rendering), so the page shows
 * it at once; in the browser the form is `lazy`, and React keeps the server's HTML while it
 * hydrates and takes it over when the chunk is there (a Suspense boundary that suspends while
 * hydrating keeps what the server sent).
 *
 * Until then the form's fields sit in a disabled fieldset: a choice made in the server's HTML
 * before the form's code runs would be lost (the form starts from its own values, and a level
 * chosen that early would never load its units), so the person waits a moment instead of
 * losing work.
 *
 * The convention (decision 0053): such a form is two files. `X.tsx` is the island pages hydrate:
 * only `diferido(...)` with its `cargar`, and the props type re-exported. `XCompleto.tsx` is the
 * form. Astro hydrates an island by its module, and only the form's own module, imported
 * dynamically, makes a chunk of its own, so no single generic file can stand in for the nine.
 */
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';

/** Renders nothing; its effect runs when the Suspense boundary it sits in has hydrated. */
function AlHidratar({ marcar }: { marcar: (vivo: boolean) => void }) {
  useEffect(() => marcar(true), [marcar]);
  return null;
}

export function diferido<P extends object>(
  cargado: ComponentType<P> | null,
  cargar: () => Promise<{ default: ComponentType<P> }>,
): ComponentType<P> {
  const Formulario = cargado ?? lazy(cargar);
  return function Diferido(props: P) {
    const [vivo, setVivo] = useState(false);
    return (
      <fieldset className="diferido" disabled={!vivo}>
        {/* A fieldset starts with a legend (WCAG H71); this one groups nothing a person sees. */}
        <legend hidden />
        <Suspense fallback={null}>
          <Formulario {...props} />
          <AlHidratar marcar={setVivo} />
        </Suspense>
      </fieldset>
    );
  };
}

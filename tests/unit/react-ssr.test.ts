/**
 * Decision 0079: an island's Suspense boundary is never outlined on the server, however large,
 * since revealing an outlined boundary takes an inline script the pages' CSP forbids.
 */
import { createElement, Suspense } from 'react';
import ReactDOMServer from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import '../../src/lib/server/http/react-ssr.server.ts';

async function html(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('islands rendered on the server', () => {
  it('inline a Suspense boundary of over 30 kB with no script and no hidden copy', async () => {
    const filas = Array.from({ length: 400 }, (_, i) => createElement('li', { key: i }, `OA ${i}: ${'enunciado largo '.repeat(5)}`));
    // As islands/comun/diferido.tsx renders a form: a boundary inside a fieldset.
    const arbol = createElement(
      'fieldset',
      { className: 'diferido' },
      createElement(Suspense, { fallback: null }, createElement('form', null, createElement('ul', null, filas))),
    );
    const salida = await html(await ReactDOMServer.renderToReadableStream(arbol));
    expect(salida.length).toBeGreaterThan(30_000);
    expect(salida).not.toContain('<script');
    expect(salida).not.toContain('<template');
    expect(salida).not.toContain('hidden');
    expect(salida.startsWith('<fieldset class="diferido"><!--$--><form><ul>')).toBe(true);
  });
});

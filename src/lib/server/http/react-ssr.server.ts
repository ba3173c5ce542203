/**
 * React renders islands on the server as a stream (@astrojs/react calls `renderToReadableStream`).
 * Since React 19.2 a completed Suspense boundary (not the root) whose HTML passes
 * `progressiveChunkSize` (12,800 bytes by default) is "outlined": sent hidden after the rest and
 * revealed by an inline script. Our pages
 * forbid inline scripts (the Content-Security-Policy lists hashes of our own, decision 0022), so an
 * outlined form stayed hidden and its copy duplicated in the page: the upload and edit forms sit
 * in one boundary (islands/comun/diferido.tsx), and a level with many OAs passes the threshold.
 * The island's HTML is read whole before it is sent anyway (Astro collects it), so outlining gains
 * nothing here: every render gets an unbounded chunk size (decision 0079). @astrojs/react passes
 * no way to set it, so the renderer it imports (the same module object) is wrapped once.
 */
import ReactDOMServer from 'react-dom/server';

type Render = typeof ReactDOMServer.renderToReadableStream;
const MARCA = Symbol.for('entre-docentes.sin-contornos');
const servidor = ReactDOMServer as typeof ReactDOMServer & { [MARCA]?: true };

if (!servidor[MARCA]) {
  const original: Render = servidor.renderToReadableStream.bind(servidor);
  servidor.renderToReadableStream = ((children, options) =>
    original(children, { ...options, progressiveChunkSize: Number.POSITIVE_INFINITY })) as Render;
  servidor[MARCA] = true;
}

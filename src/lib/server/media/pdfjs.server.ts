/**
 * PDF.js as a command, for machines without poppler (herramientas.server.ts): the server runs it
 * as a child process, like pdfinfo and pdftoppm, so a hostile PDF costs a process that the
 * timeout kills, never the server's event loop or memory.
 *
 *   node pdfjs.server.ts version
 *   node pdfjs.server.ts info FILE               prints "Pages: N", as pdfinfo does
 *   node pdfjs.server.ts render FILE OUT WIDTH   page 1 as a PNG WIDTH pixels wide
 *
 * Exits 1 with a line on stderr when the file is not a PDF it can read.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const raiz = path.dirname(require.resolve('pdfjs-dist/package.json'));

async function abrir(file: string) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = new Uint8Array(await readFile(file));
  return pdfjs.getDocument({
    data,
    isEvalSupported: false,
    verbosity: 0,
    // The 14 standard fonts and the character maps PDFs may name without embedding them.
    standardFontDataUrl: `${path.join(raiz, 'standard_fonts')}/`,
    cMapUrl: `${path.join(raiz, 'cmaps')}/`,
    cMapPacked: true,
  }).promise;
}

async function main(args: string[]): Promise<void> {
  const [orden, file, out, ancho] = args;
  if (orden === 'version') {
    const { version } = require('pdfjs-dist/package.json') as { version: string };
    process.stdout.write(`pdf.js ${version}\n`);
    return;
  }
  if (orden === 'info' && file) {
    const doc = await abrir(file);
    process.stdout.write(`Pages:          ${doc.numPages}\n`);
    await doc.destroy();
    return;
  }
  const width = Number(ancho);
  if (orden === 'render' && file && out && Number.isInteger(width) && width > 0 && width <= 4000) {
    const { createCanvas } = await import('@napi-rs/canvas');
    const doc = await abrir(file);
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / natural.width });
    const canvas = createCanvas(Math.round(viewport.width), Math.max(1, Math.round(viewport.height)));
    // PDF.js paints the page's white paper first, as poppler does.
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
    await writeFile(`${out}.tmp`, canvas.toBuffer('image/png'));
    await rename(`${out}.tmp`, out);
    await doc.destroy();
    return;
  }
  throw new Error('usage: pdfjs.server.ts version | info FILE | render FILE OUT WIDTH');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

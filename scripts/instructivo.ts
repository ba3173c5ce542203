/**
 * `npm run instructivo`: renders scripts/instructivo/instructivo.html to public/instructivo.pdf, the
 * static guide behind the 'Instructivo' button of the Biblioteca Docente.
 *
 * The HTML writes the product's name as {{PRODUCTO}}; it is replaced here with PRODUCTO of
 * src/lib/marca.ts, so the guide never names the product differently from the site. The PDF's
 * Title comes from the document's <title>. Debian's Chromium, driven by playwright-core, prints it
 * on A4 with a footer carrying the page numbers (`apt-get install -y chromium` if it is missing).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCTO } from '../src/lib/marca.ts';
import { launchBrowser } from '../tests/support/browser.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fuente = path.join(root, 'scripts/instructivo/instructivo.html');
const destino = path.join(root, 'public/instructivo.pdf');
/** The PDF is downloaded by teachers on mobile data: keep it light. */
const MAX_BYTES = 200 * 1024;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const plantilla = await readFile(fuente, 'utf8');
const html = plantilla.replaceAll('{{PRODUCTO}}', escapeHtml(PRODUCTO));
const sobrante = html.match(/\{\{\s*\w+\s*\}\}/);
if (sobrante) throw new Error(`Unknown placeholder ${sobrante[0]} in ${path.relative(root, fuente)}`);

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ locale: 'es-CL' });
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  const titulo = await page.title();
  if (!titulo) throw new Error('The instructivo has no <title>: the PDF would have no Title');
  await page.pdf({
    path: destino,
    format: 'A4',
    printBackground: true,
    margin: { top: '14mm', right: '16mm', bottom: '16mm', left: '16mm' },
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate: `<div style="width:100%;margin:0 16mm;font-family:Arial,'Liberation Sans',sans-serif;font-size:8pt;color:#526070;display:flex;justify-content:space-between"><span>${escapeHtml(PRODUCTO)} · Instructivo Biblioteca Docente</span><span>Página <span class="pageNumber"></span> de <span class="totalPages"></span></span></div>`,
    tagged: true,
    outline: true,
  });
  const { size } = await stat(destino);
  console.log(`${path.relative(root, destino)}: ${(size / 1024).toFixed(1)} kB, "${titulo}"`);
  if (size > MAX_BYTES) throw new Error(`The PDF weighs ${size} bytes, over the ${MAX_BYTES} budget`);
} finally {
  await browser.close();
}

/**
 * A PDF's page count (and a real-PDF check) and a render of its first page, by poppler or PDF.js,
 * whichever herramientas.server.ts found.
 */
import { rename, rm } from 'node:fs/promises';
import { type HerramientaPdf, resolverHerramientas } from './herramientas.server.ts';
import { ejecutar } from './proceso.server.ts';

/** Poppler on PATH, or PDF.js: what a caller that was not handed the process's tools gets. */
let predeterminada: HerramientaPdf | undefined;
const porDefecto = () => {
  predeterminada ??= resolverHerramientas().pdf;
  return predeterminada;
};

/** The number of pages, or null when the tool cannot read the file as a PDF (or does not run). */
export async function contarPaginas(file: string, pdf: HerramientaPdf = porDefecto()): Promise<number | null> {
  try {
    const [comando, args] = pdf.tipo === 'poppler' ? [pdf.pdfinfo, [file]] : [pdf.ruta, [pdf.script, 'info', file]];
    const { stdout } = await ejecutar(comando, args, { timeoutMs: 20_000 });
    const m = /^Pages:\s+(\d+)/m.exec(stdout);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Renders page 1 as a PNG `width` pixels wide into `outFile` (lossless: the thumbnails are encoded
 * from it once, by sharp); false when it cannot.
 */
export async function renderPrimeraPagina(
  file: string,
  outFile: string,
  width: number,
  pdf: HerramientaPdf = porDefecto(),
): Promise<boolean> {
  const prefix = `${outFile}.render`;
  try {
    if (pdf.tipo === 'pdfjs') {
      await ejecutar(pdf.ruta, [pdf.script, 'render', file, `${prefix}.png`, String(width)], { timeoutMs: 30_000 });
    } else {
      const args = ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to-x', String(width), '-scale-to-y', '-1'];
      await ejecutar(pdf.ruta, [...args, file, prefix], { timeoutMs: 30_000 });
    }
    await rename(`${prefix}.png`, outFile);
    return true;
  } catch {
    await rm(`${prefix}.png`, { force: true });
    await rm(`${prefix}.png.tmp`, { force: true });
    return false;
  }
}

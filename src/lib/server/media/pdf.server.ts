/** PDF tools from poppler-utils: page count (and a real-PDF check), and a render of the first page. */
import { rename, rm } from 'node:fs/promises';
import { ejecutar } from './proceso.server.ts';

/** The number of pages, or null when poppler cannot read the file as a PDF. */
export async function contarPaginas(file: string): Promise<number | null> {
  try {
    const { stdout } = await ejecutar('pdfinfo', [file], { timeoutMs: 20_000 });
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
export async function renderPrimeraPagina(file: string, outFile: string, width: number): Promise<boolean> {
  const prefix = `${outFile}.render`;
  try {
    const args = ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to-x', String(width), '-scale-to-y', '-1'];
    await ejecutar('pdftoppm', [...args, file, prefix], { timeoutMs: 30_000 });
    await rename(`${prefix}.png`, outFile);
    return true;
  } catch {
    await rm(`${prefix}.png`, { force: true });
    return false;
  }
}

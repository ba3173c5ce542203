/** PDF tools from poppler-utils: page count (and a real-PDF check), and a first-page thumbnail. */
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

/** Renders page 1 as a JPEG about `width` pixels wide into `outFile`; false when it cannot. */
export async function miniaturaPdf(file: string, outFile: string, width = 480): Promise<boolean> {
  const prefix = `${outFile}.render`;
  try {
    const args = [
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      '-jpeg',
      '-jpegopt',
      'quality=80',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      '-1',
    ];
    await ejecutar('pdftoppm', [...args, file, prefix], { timeoutMs: 30_000 });
    await rename(`${prefix}.jpg`, outFile);
    return true;
  } catch {
    await rm(`${prefix}.jpg`, { force: true });
    return false;
  }
}

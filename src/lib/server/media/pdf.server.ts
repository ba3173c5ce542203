/** PDF tools from poppler-utils: page count (and a real-PDF check), and a first-page thumbnail. */
import { execFile } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The number of pages, or null when poppler cannot read the file as a PDF. */
export async function contarPaginas(file: string): Promise<number | null> {
  try {
    const { stdout } = await run('pdfinfo', [file], { timeout: 20_000, maxBuffer: 1024 * 1024 });
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
    await run('pdftoppm', [...args, file, prefix], { timeout: 30_000 });
    await rename(`${prefix}.jpg`, outFile);
    return true;
  } catch {
    await rm(`${prefix}.jpg`, { force: true });
    return false;
  }
}

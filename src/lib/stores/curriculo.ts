/**
 * The curriculum changed under the console's tree (issue 30): an applied import bumps the count,
 * and the pair's tree on the same page (ArbolCurriculo) reads its pair again.
 */
import { atom } from 'nanostores';

export const $curriculoImportado = atom(0);

export function avisarImportacionCurriculo(): void {
  $curriculoImportado.set($curriculoImportado.get() + 1);
}

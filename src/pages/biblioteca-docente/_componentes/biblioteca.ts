/** What the library pages share on the server: OA links and the file hint. */
import { EXTENSIONES_MATERIAL, NOMBRES_FAMILIA } from '../../../lib/validation/archivos.ts';

/** The page of every material aligned to an OA ('MA07 OA 01' → '/biblioteca-docente/oa/MA07%20OA%2001'). */
export const hrefOA = (codigo: string) => `/biblioteca-docente/oa/${encodeURIComponent(codigo)}`;

/**
 * The file field's accept list and hint, from the allowed extensions (decision 0012) and the
 * server's size limit, so the form never promises what the server refuses.
 */
export function reglasArchivo(limiteBytes: number) {
  const porFamilia = new Map<keyof typeof NOMBRES_FAMILIA, string[]>();
  for (const [extension, familia] of Object.entries(EXTENSIONES_MATERIAL)) {
    porFamilia.set(familia, [...(porFamilia.get(familia) ?? []), `.${extension}`]);
  }
  const tipos = [...porFamilia].map(([familia, extensiones]) => `${NOMBRES_FAMILIA[familia]} (${extensiones.join(' ')})`);
  const megas = Math.floor(limiteBytes / (1024 * 1024));
  return {
    accept: Object.keys(EXTENSIONES_MATERIAL)
      .map((e) => `.${e}`)
      .join(','),
    ayuda: `Un archivo ${tipos.join(', ')}, de hasta ${megas} MB.`,
    limiteBytes,
  };
}

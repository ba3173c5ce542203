/**
 * A browser and a system, in a person's words, from a User-Agent header (issue 32's 'Mis
 * sesiones'): enough to tell 'Chrome en Windows' from 'Safari en iPhone'. Order matters: Edge,
 * Opera and Samsung Internet also say 'Chrome', Chrome also says 'Safari'. Unknown parts are
 * 'Navegador desconocido' / 'sistema desconocido'.
 */
const NAVEGADORES: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SISTEMAS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export interface Agente {
  navegador: string;
  sistema: string;
}

export function describirAgente(agente: string | null | undefined): Agente {
  const texto = agente ?? '';
  let navegador = 'Navegador desconocido';
  for (const [patron, nombre] of NAVEGADORES) {
    const m = patron.exec(texto);
    if (m) {
      navegador = `${nombre} ${m[1]}`;
      break;
    }
  }
  const sistema = SISTEMAS.find(([patron]) => patron.test(texto))?.[1] ?? 'sistema desconocido';
  return { navegador, sistema };
}

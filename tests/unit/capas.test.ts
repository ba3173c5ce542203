/**
 * The layers stay apart (issue 29 item 2, decision 0052): server code never reaches into the
 * browser's islands or the pages, and the services speak the domain, never the API or HTTP layer.
 * Read from the sources, so a new file is held to it the day it is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const raiz = path.resolve(import.meta.dirname, '../..');
const servidor = path.join(raiz, 'src/lib/server');
const dentro = (archivo: string, carpeta: string) => archivo.startsWith(path.join(raiz, carpeta) + path.sep);

function fuentes(carpeta: string): string[] {
  return readdirSync(carpeta, { recursive: true, encoding: 'utf8' })
    .filter((nombre) => /\.(ts|tsx|mts)$/.test(nombre))
    .map((nombre) => path.join(carpeta, nombre));
}

/** Every relative module a file imports or re-exports, statically or with import(), resolved. */
function importados(archivo: string): string[] {
  const texto = readFileSync(archivo, 'utf8');
  const especificadores = [...texto.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map(
    (m) => m[1] ?? '',
  );
  return especificadores.map((e) => path.resolve(path.dirname(archivo), e));
}

function violaciones(regla: (archivo: string, importado: string) => boolean): string[] {
  return fuentes(servidor).flatMap((archivo) =>
    importados(archivo)
      .filter((importado) => regla(archivo, importado))
      .map((importado) => `${path.relative(raiz, archivo)} -> ${path.relative(raiz, importado)}`),
  );
}

describe('the layers of the server', () => {
  it('finds the server files and their imports', () => {
    const servicios = fuentes(servidor).filter((a) => dentro(a, 'src/lib/server/services'));
    expect(servicios.length).toBeGreaterThan(10);
    expect(servicios.flatMap(importados).some((i) => i.endsWith('errores.server.ts'))).toBe(true);
  });

  it('never imports from src/islands or src/pages', () => {
    expect(violaciones((_, importado) => dentro(importado, 'src/islands') || dentro(importado, 'src/pages'))).toEqual([]);
  });

  it('keeps the services, and what they stand on, free of the API and HTTP layers', () => {
    const dominio = ['services', 'jobs', 'mail', 'storage', 'db', 'respaldos'].map((carpeta) => `src/lib/server/${carpeta}`);
    const capaHttp = (importado: string) => dentro(importado, 'src/lib/server/api') || dentro(importado, 'src/lib/server/http');
    expect(violaciones((archivo, importado) => dominio.some((c) => dentro(archivo, c)) && capaHttp(importado))).toEqual([]);
  });
});

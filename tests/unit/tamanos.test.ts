/**
 * Files that do one job (issue 29 items 4 and 7, decision 0053): no server file over 400 lines but
 * the database schema and the curriculum seed data, and every unit test in tests/unit, none beside
 * the code. Read from the sources, so a file is held to it the day it grows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const raiz = path.resolve(import.meta.dirname, '../..');
const LINEAS_MAXIMAS = 400;
const EXCEPCIONES = ['src/lib/server/db/schema.server.ts', 'src/lib/server/db/seed/curriculum-data.ts'];

const archivos = (carpeta: string) =>
  readdirSync(path.join(raiz, carpeta), { recursive: true, encoding: 'utf8' }).map((nombre) =>
    path.posix.join(carpeta, nombre.split(path.sep).join('/')),
  );

describe('file sizes and homes (decision 0053)', () => {
  it('no server file is over 400 lines, but the schema and the seed data', () => {
    const largos = archivos('src/lib/server')
      .filter((archivo) => /\.(ts|tsx|mts)$/.test(archivo) && !EXCEPCIONES.includes(archivo))
      .map((archivo) => ({ archivo, lineas: readFileSync(path.join(raiz, archivo), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lineas > LINEAS_MAXIMAS);
    expect(largos).toEqual([]);
  });

  it('no unit test lives beside the code: they all are in tests/unit', () => {
    expect(archivos('src').filter((archivo) => /\.test\.tsx?$/.test(archivo))).toEqual([]);
  });
});

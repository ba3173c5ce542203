import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig, VARIABLES } from '../../src/lib/server/config.server.ts';

describe('configuration', () => {
  it('builds links on the port the server listens on when PUBLIC_URL is not set', () => {
    expect(loadConfig({ PORT: '4600' }).PUBLIC_URL).toBe('http://localhost:4600');
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:4321');
    expect(loadConfig({ PORT: '4600', PUBLIC_URL: 'https://docentes.example.cl' }).PUBLIC_URL).toBe('https://docentes.example.cl');
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'no es una url' })).toThrow(/PUBLIC_URL/);
  });
});

describe('the README', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  /** The rows of the variable table: names and the documented defaults, both in backticks. */
  const filas = readme
    .split('\n')
    .filter((linea) => /^\| `[A-Z_]+`/.test(linea))
    .map((linea) => {
      const [nombres = '', defecto = ''] = linea.split('|').slice(1, 3);
      const enComillas = (celda: string) => [...celda.matchAll(/`([^`]*)`/g)].map((m) => m[1] ?? '');
      // A default given in words ("unset", "generated once…") is not a value to compare.
      return { nombres: enComillas(nombres), defectos: defecto.trim().startsWith('`') ? enComillas(defecto) : [] };
    });

  it('documents every variable the configuration reads, and no other', () => {
    expect(filas.flatMap((f) => f.nombres).sort()).toEqual([...VARIABLES].sort());
  });

  it('gives the defaults the configuration uses', () => {
    const porDefecto = loadConfig({});
    let comprobados = 0;
    for (const { nombres, defectos } of filas) {
      if (defectos.length !== nombres.length) continue;
      nombres.forEach((nombre, i) => {
        const documentado = (defectos[i] ?? '').replace('{PORT}', String(porDefecto.PORT));
        const clave = nombre as keyof typeof porDefecto;
        // Setting a variable to its documented default must change nothing.
        expect(loadConfig({ [nombre]: documentado })[clave], nombre).toEqual(porDefecto[clave]);
        comprobados++;
      });
    }
    expect(comprobados).toBeGreaterThan(15);
  });
});

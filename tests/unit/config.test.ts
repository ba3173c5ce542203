import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exigirSecretoCompartido, loadConfig, VARIABLES } from '../../src/lib/server/config.server.ts';

describe('configuration', () => {
  it('builds links on the port the server listens on when PUBLIC_URL is not set', () => {
    expect(loadConfig({ PORT: '4600' }).PUBLIC_URL).toBe('http://localhost:4600');
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:4321');
    expect(loadConfig({ PORT: '4600', PUBLIC_URL: 'https://docentes.example.cl' }).PUBLIC_URL).toBe('https://docentes.example.cl');
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'no es una url' })).toThrow(/PUBLIC_URL/);
  });

  it('asks for a shared JWT_SECRET when several processes share a PostgreSQL database', () => {
    const DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
    expect(() => exigirSecretoCompartido(loadConfig({ DATABASE_URL }))).toThrow(/JWT_SECRET: required with DATABASE_URL/);
    expect(() => exigirSecretoCompartido(loadConfig({ DATABASE_URL, JWT_SECRET: 'x'.repeat(32) }))).not.toThrow();
    // The embedded database is one process: a secret generated in its data directory is enough.
    expect(() => exigirSecretoCompartido(loadConfig({}))).not.toThrow();
  });

  it('takes file: or an s3:// bucket as STORAGE_URL, and nothing else', () => {
    expect(loadConfig({}).STORAGE_URL).toBe('file:');
    expect(loadConfig({ STORAGE_URL: '' }).STORAGE_URL).toBe('file:');
    const bucket = 's3://entre-docentes?endpoint=https://s3.example.cl&region=us-east-1&forcePathStyle=true';
    expect(loadConfig({ STORAGE_URL: bucket }).STORAGE_URL).toBe(bucket);
    for (const mala of ['s3://', 's3://A_B', 'http://bucket', '/srv/archivos', 'file:/srv']) {
      expect(() => loadConfig({ STORAGE_URL: mala }), mala).toThrow(/STORAGE_URL/);
    }
    expect(() => loadConfig({ STORAGE_PRESIGNED_SECONDS: '-1' })).toThrow(/STORAGE_PRESIGNED_SECONDS/);
    expect(() => loadConfig({ STORAGE_PUBLIC_URL: 'cdn' })).toThrow(/STORAGE_PUBLIC_URL/);
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

/**
 * The server's process environment (decision 0085) is set wherever the server is started: the
 * supervisor and the harness (src), the Dockerfile and both systemd units of docs/deploy.md. A
 * value the operator sets wins.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conEntornoDelServidor, ENTORNO_DEL_SERVIDOR } from '../../src/lib/server/entorno-proceso.server.ts';

const raiz = path.resolve(import.meta.dirname, '../..');
const leer = (archivo: string) => readFileSync(path.join(raiz, archivo), 'utf8');

describe('the server process environment', () => {
  it('adds its defaults and keeps a value already set', () => {
    expect(conEntornoDelServidor({ PORT: '4321' })).toEqual({ ...ENTORNO_DEL_SERVIDOR, PORT: '4321' });
    expect(conEntornoDelServidor({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX).toBe('4');
  });

  it.each(Object.entries(ENTORNO_DEL_SERVIDOR))('%s is in the Dockerfile and in both systemd units', (nombre, valor) => {
    expect(leer('Dockerfile')).toMatch(new RegExp(`^\\s+${nombre}=${valor} \\\\$`, 'm'));
    const unidades = leer('docs/deploy.md').match(/^\[Service\][\s\S]*?^ExecStart=.*$/gm) ?? [];
    expect(unidades.map((u) => u.match(/^ExecStart=.*?(\S+)$/m)?.[1])).toEqual([
      'src/lib/server/main.server.ts',
      'src/lib/server/worker.server.ts',
    ]);
    for (const unidad of unidades) expect(unidad.split('\n')).toContain(`Environment=${nombre}=${valor}`);
  });
});

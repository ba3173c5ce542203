/**
 * Tools never outlive the process that started them (docs/decisions/0025): with setpriv's
 * parent-death signal and with the sh watchdog used where setpriv is absent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ejecutar, type Guardian, guardianPorDefecto } from '../../src/lib/server/media/proceso.server.ts';
import { corriendo, esperar } from '../support/procesos.ts';

const modulo = path.resolve(import.meta.dirname, '../../src/lib/server/media/proceso.server.ts');
let parent: ChildProcess | undefined;

afterEach(() => {
  parent?.kill('SIGKILL');
  parent = undefined;
});

/** A Node process that runs `sleep 60` through ejecutar, prints the sleep's pid and exits on SIGTERM. */
async function padreConSleep(guardian: Guardian): Promise<{ parent: ChildProcess; pid: number }> {
  const script = `
    const { ejecutar } = await import(${JSON.stringify(modulo)});
    process.on('SIGTERM', () => process.exit(0));
    ejecutar('sleep', ['60'], { timeoutMs: 120000, guardian: ${JSON.stringify(guardian)}, onSpawn: (pid) => console.log(pid) }).catch(() => {});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  parent = child;
  const pid = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', (code) => reject(new Error(`parent exited with ${code}`)));
  });
  return { parent: child, pid };
}

describe.each<Guardian>(['setpriv', 'vigilante'])('ejecutar under %s', (guardian) => {
  it('returns the output, and a failure with its last stderr lines', async () => {
    await expect(ejecutar('echo', ['hola'], { timeoutMs: 5000, guardian })).resolves.toEqual({ stdout: 'hola\n', stderr: '' });
    await expect(ejecutar('sh', ['-c', 'echo roto >&2; exit 3'], { timeoutMs: 5000, guardian })).rejects.toThrow('sh exited with 3: roto');
  });

  it('kills the tool when it takes too long or the signal aborts', async () => {
    let pid = 0;
    const started = Date.now();
    await expect(ejecutar('sleep', ['30'], { timeoutMs: 200, guardian, onSpawn: (p) => (pid = p) })).rejects.toThrow('took longer');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(corriendo(pid)).toBe(false);
    const controller = new AbortController();
    const run = ejecutar('sleep', ['30'], { timeoutMs: 60_000, guardian, signal: controller.signal, onSpawn: (p) => (pid = p) });
    controller.abort(new Error('liberado'));
    await expect(run).rejects.toThrow('liberado');
    expect(corriendo(pid)).toBe(false);
  });

  it('the tool dies with its parent on kill -9', async () => {
    const { parent, pid } = await padreConSleep(guardian);
    expect(corriendo(pid)).toBe(true);
    parent.kill('SIGKILL');
    await esperar(() => !corriendo(pid), 3000, `sleep ${pid} to die with its parent`);
  });

  it('the tool dies when its parent exits normally', async () => {
    const { parent, pid } = await padreConSleep(guardian);
    parent.kill('SIGTERM');
    await esperar(() => !corriendo(pid), 3000, `sleep ${pid} to die with its parent`);
  });
});

it('uses setpriv where util-linux provides it', () => {
  expect(guardianPorDefecto()).toBe(existsSync('/usr/bin/setpriv') ? 'setpriv' : 'vigilante');
});

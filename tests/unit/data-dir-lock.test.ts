/**
 * The data directory's claim (decision 0047) against a holder in another process: a clock step
 * does not make a live holder's claim look abandoned, a dead holder's claim is taken over.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, DataDirBusyError, type Lock } from '../../src/lib/server/data-dir-lock.server.ts';
import { createLogger } from '../../src/lib/server/log.server.ts';

const modulo = path.resolve(import.meta.dirname, '../../src/lib/server/data-dir-lock.server.ts');
const HORA = 3_600_000;

let dataDir: string;
let holder: ChildProcess | undefined;
let lock: Lock | undefined;

/** Another process that claims `dataDir` and keeps it until killed. */
async function otherHolder(): Promise<ChildProcess> {
  const script = `import { acquireLock } from ${JSON.stringify(modulo)};
await acquireLock(${JSON.stringify(dataDir)}, 'http://127.0.0.1:1');
process.stdout.write('listo\\n');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => String(d).includes('listo') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child;
}

const record = () => JSON.parse(readFileSync(path.join(dataDir, 'servidor.lock'), 'utf8')) as { pid: number; host: string };

function setup() {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-lock-'));
}

afterEach(async () => {
  vi.useRealTimers();
  lock?.release();
  lock = undefined;
  if (holder && holder.exitCode === null && holder.signalCode === null) {
    const exited = new Promise((resolve) => holder?.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
  }
  holder = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the data directory claim', () => {
  it('refuses a second process after the clock jumps an hour forward', async () => {
    setup();
    holder = await otherHolder();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + HORA);
    const error = await acquireLock(dataDir, 'x', { watchMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as DataDirBusyError).holder?.pid).toBe(holder.pid);
  });

  it('refuses it by the claim kept fresh when the record cannot vouch for the holder (another machine), clock stepped', async () => {
    setup();
    holder = await otherHolder();
    // As a holder on another machine sharing the directory: its pid tells this one nothing.
    writeFileSync(path.join(dataDir, 'servidor.lock'), JSON.stringify({ ...record(), host: 'otro-equipo' }));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + HORA);
    const error = await acquireLock(dataDir, 'x', { watchMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as Error).message).toMatch(/^Another process is already using \(it keeps .*servidor\.lock\.d fresh\) the data directory/);
  });

  it('takes over at once the claim of a holder that died without letting go', async () => {
    setup();
    holder = await otherHolder();
    const muerto = holder.pid;
    const exited = new Promise((resolve) => holder?.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    expect(existsSync(path.join(dataDir, 'servidor.lock.d'))).toBe(true);
    const started = performance.now();
    lock = await acquireLock(dataDir, 'x', { watchMs: 3000 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(record().pid).toBe(process.pid);
    expect(record().pid).not.toBe(muerto);
  });

  it('puts back its record and its claim when they are deleted', async () => {
    setup();
    const warnings: string[] = [];
    const log = createLogger('warn', {}, (line) => {
      warnings.push((JSON.parse(line) as { msg: string }).msg);
    });
    lock = await acquireLock(dataDir, 'http://127.0.0.1:2', { log });
    rmSync(path.join(dataDir, 'servidor.lock'));
    rmSync(path.join(dataDir, 'servidor.lock.d'), { recursive: true });
    await vi.waitUntil(() => warnings.includes('data directory lock restored'), { timeout: 5000, interval: 50 });
    await vi.waitUntil(() => existsSync(path.join(dataDir, 'servidor.lock')), { timeout: 5000, interval: 50 });
    expect(existsSync(path.join(dataDir, 'servidor.lock.d'))).toBe(true);
    expect(record().pid).toBe(process.pid);
  });
});

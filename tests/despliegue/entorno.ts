/**
 * The pieces of a deployment on several machines, started on this one for tests/despliegue: a
 * fresh PostgreSQL database, web servers (`main.server.ts`, as `npm run serve` runs it) and
 * workers (`npm run worker`), each process with its own data directory and its log kept to show
 * when a test fails. A process that does not come up is stopped and its directory removed before
 * the error is thrown, so a failed start leaves nothing running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conEntornoDelServidor } from '../../src/lib/server/entorno-proceso.server.ts';
import { enServidor } from '../support/postgres.ts';
import { freePort, root } from '../support/server.ts';

/** A new database `ed_despliegue_<random>` on the server DATABASE_URL names; `drop` removes it. */
export async function baseDeDatos(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ed_despliegue_${randomBytes(6).toString('hex')}`;
  await enServidor(serverUrl, `create database ${name}`);
  const url = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  return { url, drop: () => enServidor(serverUrl, `drop database if exists ${name} with (force)`) };
}

export interface Proceso {
  dataDir: string;
  process: ChildProcess;
  output(): string;
  /** Kills the process (SIGKILL unless told otherwise) and waits until it is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface WebServer extends Proceso {
  url: string;
}

const START_MS = 60_000;

/**
 * Runs `script` on a fresh data directory with the deployment's shared `env`, until `ready` says
 * it is up. On failure the process is killed and its directory removed.
 */
async function iniciar(script: string, env: NodeJS.ProcessEnv, ready: (p: Proceso) => Promise<boolean>): Promise<Proceso> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-despliegue-proceso-'));
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: conEntornoDelServidor({ ...process.env, ...env, DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const proceso: Proceso = {
    dataDir,
    process: child,
    output: () => output,
    async stop(signal = 'SIGKILL') {
      if (!gone()) child.kill(signal);
      await exited;
    },
  };
  const deadline = Date.now() + START_MS;
  for (;;) {
    if (gone()) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`${script} exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    }
    if (await ready(proceso).catch(() => false)) return proceso;
    if (Date.now() > deadline) {
      await proceso.stop();
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`${script} did not come up within ${START_MS / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `npm run worker`, once it logs that its job runner started. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<Proceso> {
  return iniciar('src/lib/server/worker.server.ts', env, async (p) => p.output().includes('worker started'));
}

/** A web server on a free port, once /healthz answers 200: it and its database can serve (issue 28). */
export async function startWebServer(env: NodeJS.ProcessEnv): Promise<WebServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proceso = await iniciar(
    'src/lib/server/main.server.ts',
    { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url },
    async () => {
      const res = await fetch(`${url}/healthz`);
      return res.ok;
    },
  );
  return { ...proceso, url };
}

/** Every regular file under `dir` (relative paths); none when the folder does not exist. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

/** The last `lines` lines of a process's log, headed by its name, for a failed test's report. */
export function tail(name: string, output: string, lines = 60): string {
  return `── ${name} (last ${lines} lines) ──\n${output.split('\n').slice(-lines).join('\n')}`;
}

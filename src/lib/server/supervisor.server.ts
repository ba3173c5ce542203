/**
 * `npm start` and `npm run serve`: runs the web server (main.server.ts) as a child process and
 * starts it again, with a growing pause, when it crashes (decision 0020). SIGINT and SIGTERM go
 * to the server, which stops gracefully; a clean exit, or exit code 2 (data directory busy, bad
 * configuration, no build: starting again would not help), ends the supervisor with that code.
 * Under systemd the unit's `Restart=always` does this job instead (docs/deploy.md).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { conEntornoDelServidor } from './entorno-proceso.server.ts';
import { createLogger, type LogLevel } from './log.server.ts';

const EXIT_DO_NOT_RESTART = 2;
const FIRST_PAUSE_MS = 1000;
const MAX_PAUSE_MS = 30_000;
/** A server that ran this long before crashing counts as healthy: the next pause starts small again. */
const STABLE_MS = 60_000;

const levels: readonly string[] = ['debug', 'info', 'warn', 'error', 'silent'];
const level = (levels.includes(process.env.LOG_LEVEL ?? '') ? process.env.LOG_LEVEL : 'info') as LogLevel;
const log = createLogger(level, { service: 'supervisor' });
const entry = path.join(import.meta.dirname, 'main.server.ts');

let child: ChildProcess | undefined;
let stopping = false;
let pauseMs = FIRST_PAUSE_MS;
let restartTimer: NodeJS.Timeout | undefined;

function start(restart: boolean): void {
  const startedAt = Date.now();
  const current = spawn(process.execPath, [...process.execArgv, entry], { stdio: 'inherit', env: conEntornoDelServidor(process.env) });
  child = current;
  if (restart) log.warn('server restarted', { pid: current.pid });
  else log.debug('server started', { pid: current.pid });
  current.once('error', (error) => log.error('server could not be started', { error }));
  current.once('exit', (code, signal) => {
    child = undefined;
    if (stopping || code === 0 || code === EXIT_DO_NOT_RESTART) {
      process.exit(code ?? 1);
    }
    if (Date.now() - startedAt > STABLE_MS) pauseMs = FIRST_PAUSE_MS;
    log.error('server stopped unexpectedly; restarting', { pid: current.pid, code, signal, restartInMs: pauseMs });
    restartTimer = setTimeout(() => start(true), pauseMs);
    pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
  });
}

function forward(signal: NodeJS.Signals): void {
  if (!child) process.exit(0);
  clearTimeout(restartTimer);
  // A second signal while the server is stopping: the person does not want to wait.
  child.kill(stopping ? 'SIGKILL' : signal);
  stopping = true;
}

process.on('SIGINT', () => forward('SIGINT'));
process.on('SIGTERM', () => forward('SIGTERM'));
start(false);

/**
 * The data directory: the embedded database, files, the outbox, generated secrets and the lock
 * that keeps a second server off an embedded database that admits one process.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const paths = (dataDir: string) => ({
  pglite: path.join(dataDir, 'pglite'),
  files: path.join(dataDir, 'files'),
  outbox: path.join(dataDir, 'outbox'),
  secrets: path.join(dataDir, 'secretos'),
  lock: path.join(dataDir, 'servidor.lock'),
});

/** A secret generated once into the data directory (mode 600) and read back on later starts. */
export function persistentSecret(dataDir: string, name: string): string {
  const dir = paths(dataDir).secrets;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    const value = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, value, { mode: 0o600, flag: 'wx' });
      return value;
    } catch {
      return readFileSync(file, 'utf8').trim();
    }
  }
}

export interface LockInfo {
  pid: number;
  url: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux's USER_HZ, 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;
/** /proc's boot time has whole seconds: a real holder may appear to start up to this much after its lock. */
const CLOCK_SLACK_MS = 2000;

/**
 * When a process started, from Linux's /proc (null elsewhere): a lock whose pid now belongs to a
 * process started after the lock was written is stale (the pid was reused, e.g. after a reboot or
 * in a restarted container), not a server holding the directory.
 */
function startedAt(pid: number): number | null {
  try {
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    // Field 22 (start time in clock ticks since boot) comes after the command name in parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(bootSeconds) && Number.isFinite(ticks) ? (bootSeconds + ticks / CLOCK_TICKS) * 1000 : null;
  } catch {
    return null;
  }
}

function holds(info: LockInfo): boolean {
  if (typeof info.pid !== 'number' || info.pid === process.pid || !alive(info.pid)) return false;
  const started = startedAt(info.pid);
  const locked = Date.parse(info.startedAt);
  return started === null || Number.isNaN(locked) || started <= locked + CLOCK_SLACK_MS;
}

/** The running server that holds this data directory, if any (a stale lock is not one). */
export function readLock(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(paths(dataDir).lock, 'utf8')) as LockInfo;
    return holds(info) ? info : null;
  } catch {
    return null;
  }
}

export class DataDirBusyError extends Error {
  readonly holder: LockInfo;
  constructor(dataDir: string, holder: LockInfo) {
    super(
      `Another server (pid ${holder.pid}, ${holder.url}) is already using the data directory ${dataDir}. ` +
        'The embedded database admits one process: stop that server first, or give this one its own DATA_DIR ' +
        '(or set DATABASE_URL to use PostgreSQL, which admits several).',
    );
    this.holder = holder;
  }
}

export interface Lock {
  /** Records where this process can be reached (the CLI calls the server there). */
  setUrl(url: string): void;
  release(): void;
}

/** Takes the data directory for this process. */
export function acquireLock(dataDir: string, url: string): Lock {
  mkdirSync(dataDir, { recursive: true });
  const file = paths(dataDir).lock;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      const startedAt = new Date().toISOString();
      writeFileSync(fd, JSON.stringify({ pid: process.pid, url, startedAt } satisfies LockInfo));
      closeSync(fd);
      return {
        setUrl(next) {
          writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, url: next, startedAt } satisfies LockInfo), { mode: 0o600 });
          renameSync(`${file}.tmp`, file);
        },
        release() {
          try {
            const info = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
            if (info.pid === process.pid) unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder) throw new DataDirBusyError(dataDir, holder);
      // Stale lock from a process that died (kill -9, power loss) or whose pid was reused: take it over.
      if (existsSync(file)) unlinkSync(file);
    }
  }
  throw new Error(`could not take the lock ${file}`);
}

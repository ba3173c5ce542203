/**
 * One process on the embedded database, always (decision 0047). Whoever opens DATA_DIR/pglite
 * (the server, or `npm run usuarios` with no server running) first claims the data directory:
 *
 * - the claim is `servidor.lock.d`, a directory made with mkdir (atomic) that proper-lockfile
 *   touches every second while its holder lives;
 * - the record `servidor.lock` (JSON: pid, address, start) says who holds it and where to reach it.
 *
 * The holder puts back either one if it disappears. A claim is only taken over when it is proven
 * abandoned, never by comparing its age with the wall clock (a clock step would make a live
 * holder's claim look old): its record names a dead process of this machine, or its mtime did not
 * change at all while we watched it on the monotonic clock.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmdirSync, type Stats, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import lockfile from 'proper-lockfile';
import { paths } from './data-dir.server.ts';
import type { Logger } from './log.server.ts';

export interface LockInfo {
  pid: number;
  url: string;
  startedAt: string;
  /** The machine the holder runs on: its pid means something only there. */
  host?: string;
  /** The holder's start in clock ticks since boot (Linux /proc): a reused pid has another. */
  startTicks?: number | null;
  /** Which claim directory this record is about (inode and birth time). */
  claim?: string;
}

/** How often the holder touches its claim and checks its record (proper-lockfile's minimum). */
const REFRESH_MS = 1000;
/** How long a claim nothing vouches for must stay untouched to count as abandoned. */
const WATCH_MS = 10_000;
/** proper-lockfile never judges a claim stale by its age: we do, without the wall clock. */
const NEVER_STALE = Number.MAX_SAFE_INTEGER;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The address a client on this machine reaches a server listening on HOST:PORT at. */
export function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** A process's start in clock ticks since boot, from Linux's /proc (null elsewhere); no wall clock. */
function startTicks(pid: number): number | null {
  try {
    // Field 22 comes after the command name in parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** true: a live process other than this one; false: dead, reused or this one; null: cannot tell. */
function holds(info: LockInfo): boolean | null {
  if (typeof info.pid !== 'number') return null;
  if (info.host !== undefined && info.host !== os.hostname()) return null;
  if (info.pid === process.pid || !alive(info.pid)) return false;
  const ticks = startTicks(info.pid);
  return typeof info.startTicks !== 'number' || ticks === null || ticks === info.startTicks;
}

function readRecord(dataDir: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(paths(dataDir).lock, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

function writeRecord(dataDir: string, info: LockInfo): void {
  const file = paths(dataDir).lock;
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(info), { mode: 0o600 });
  renameSync(`${file}.${process.pid}.tmp`, file);
}

function statOrNull(dir: string): Stats | null {
  try {
    return statSync(dir);
  } catch {
    return null;
  }
}

const claimId = (stat: Stats) => `${stat.ino}:${stat.birthtimeMs}`;

/** The running server that holds this data directory, if its record shows one. */
export function readLock(dataDir: string): LockInfo | null {
  const info = readRecord(dataDir);
  return info && holds(info) === true ? info : null;
}

export class DataDirBusyError extends Error {
  readonly holder: LockInfo | null;
  constructor(dataDir: string, holder: LockInfo | null) {
    const who = holder
      ? `Another server (pid ${holder.pid}, ${holder.url}) is already using`
      : `Another process is already using (it keeps ${paths(dataDir).claim} fresh)`;
    super(
      `${who} the data directory ${dataDir}. ` +
        'The embedded database admits one process: stop that server first, or give this one its own DATA_DIR ' +
        '(or set DATABASE_URL to use PostgreSQL, which admits several).',
    );
    this.holder = holder;
  }
}

/**
 * Who holds the existing claim: a live holder (its record, or null when unknown) is reported as
 * busy; 'abandoned' means it was moved out of the way and mkdir may be tried again.
 */
async function judge(dataDir: string, watchMs: number): Promise<{ busy: LockInfo | null } | 'abandoned'> {
  const dir = paths(dataDir).claim;
  const before = statOrNull(dir);
  if (!before) return 'abandoned';
  const info = readRecord(dataDir);
  const verdict = info?.claim === claimId(before) ? holds(info) : null;
  if (verdict === true) return { busy: info };
  if (verdict === null) {
    // Nothing proves who holds it: a live holder touches it every second, whatever the clock says.
    const deadline = performance.now() + watchMs;
    while (performance.now() < deadline) {
      await delay(250);
      const now = statOrNull(dir);
      if (!now) return 'abandoned';
      if (claimId(now) !== claimId(before) || now.mtimeMs !== before.mtimeMs) return { busy: readLock(dataDir) };
    }
  }
  // Abandoned; moved away only if it is still the very claim judged.
  const now = statOrNull(dir);
  if (now && claimId(now) === claimId(before) && now.mtimeMs === before.mtimeMs) {
    const away = `${dir}.abandonado-${process.pid}-${randomBytes(4).toString('hex')}`;
    renameSync(dir, away);
    rmdirSync(away);
  }
  return 'abandoned';
}

export interface Lock {
  /** Records where this process can be reached (the CLI calls the server there). */
  setUrl(url: string): void;
  release(): void;
}

export interface LockOptions {
  log?: Logger;
  /** The claim was taken by another live process: this one must stop using the database at once. */
  onLost?: (error: Error) => void;
  /** How long an unvouched claim is watched before it counts as abandoned. */
  watchMs?: number;
}

/** Claims the data directory for this process, or throws DataDirBusyError. */
export async function acquireLock(dataDir: string, url: string, options: LockOptions = {}): Promise<Lock> {
  await mkdir(dataDir, { recursive: true });
  const dir = paths(dataDir).claim;
  const { log, watchMs = WATCH_MS } = options;
  const onLost =
    options.onLost ??
    ((error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    });
  const record: LockInfo = {
    pid: process.pid,
    url,
    startedAt: new Date().toISOString(),
    host: os.hostname(),
    startTicks: startTicks(process.pid),
  };
  let released = false;
  let claiming = false;

  const claim = async (): Promise<void> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await lockfile.lock(dataDir, {
          lockfilePath: dir,
          realpath: false,
          stale: NEVER_STALE,
          update: REFRESH_MS,
          onCompromised: compromised,
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
        const verdict = await judge(dataDir, watchMs);
        if (verdict !== 'abandoned') throw new DataDirBusyError(dataDir, verdict.busy);
        continue;
      }
      // Someone deleted the claim under a live holder whose record is still there: not ours to take.
      const previous = readLock(dataDir);
      if (previous) {
        lockfile.unlockSync(dataDir, { lockfilePath: dir, realpath: false });
        throw new DataDirBusyError(dataDir, previous);
      }
      record.claim = claimId(statSync(dir));
      writeRecord(dataDir, record);
      return;
    }
    throw new Error(`could not claim ${dir}`);
  };

  function compromised(error: Error): void {
    if (released) return;
    log?.warn('data directory lock lost; taking it again', { error: error.message, dir });
    claiming = true;
    claim()
      .then(
        () => log?.warn('data directory lock restored', { dir }),
        (reason: unknown) => onLost(reason instanceof Error ? reason : new Error(String(reason))),
      )
      .finally(() => {
        claiming = false;
      });
  }

  await claim();
  // The record is only an address book, but the CLI finds the server by it: put it back if it goes.
  const watch = setInterval(() => {
    if (claiming) return;
    const info = readRecord(dataDir);
    if (info?.pid === record.pid && info.claim === record.claim && info.url === record.url) return;
    const current = statOrNull(dir);
    if (!current || claimId(current) !== record.claim) return; // the claim's own check handles it
    log?.warn('data directory lock record missing or changed; writing it again', { file: paths(dataDir).lock });
    writeRecord(dataDir, record);
  }, REFRESH_MS);
  watch.unref();

  return {
    setUrl(next) {
      record.url = next;
      writeRecord(dataDir, record);
    },
    release() {
      if (released) return;
      released = true;
      clearInterval(watch);
      // The record first: a claim seen without a record is watched, never taken at once.
      if (readRecord(dataDir)?.pid === process.pid) {
        try {
          unlinkSync(paths(dataDir).lock);
        } catch {
          /* already gone */
        }
      }
      try {
        lockfile.unlockSync(dataDir, { lockfilePath: dir, realpath: false });
      } catch {
        /* lost meanwhile */
      }
    },
  };
}

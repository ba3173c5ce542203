/**
 * The data directory: the embedded database, files, the outbox, generated secrets and the lock
 * that keeps a second process off an embedded database that admits one (data-dir-lock.server.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const paths = (dataDir: string) => ({
  pglite: path.join(dataDir, 'pglite'),
  files: path.join(dataDir, 'files'),
  outbox: path.join(dataDir, 'outbox'),
  secrets: path.join(dataDir, 'secretos'),
  /** Where the holder can be reached (JSON), for the CLI and for people. */
  lock: path.join(dataDir, 'servidor.lock'),
  /** The claim itself: a directory its holder keeps fresh (proper-lockfile). */
  claim: path.join(dataDir, 'servidor.lock.d'),
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

/**
 * What both measuring scripts need around a running server: a clear stop when the site has not
 * been built, and the built server on a fresh data directory. (Signing in and the client typed by
 * openapi.yaml are in tests/support/client.ts, shared with the browser tests.)
 */
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type RunningServer, removeDir, root, startServer } from '../../tests/support/server.ts';

const entry = path.join(root, 'dist/server/entry.mjs');

/** Exits with 'Run npm run build first' when there is no build; warns when sources are newer than it. */
export function requireBuild(): void {
  if (!existsSync(entry) || !existsSync(path.join(root, 'dist/client'))) {
    process.stderr.write('The site is not built. Run npm run build first.\n');
    process.exit(1);
  }
  const built = statSync(entry).mtimeMs;
  const newer = ['src/pages', 'src/layouts', 'src/islands']
    .flatMap((dir) => listFiles(path.join(root, dir)))
    .filter((file) => statSync(file).mtimeMs > built);
  if (newer.length > 0) {
    const shown = newer.slice(0, 3).map((f) => path.relative(root, f));
    process.stderr.write(
      `Warning: ${newer.length} source file(s) changed after the last build (${shown.join(', ')}${newer.length > 3 ? ', …' : ''}); run npm run build for current figures.\n`,
    );
  }
}

/** Every file under a folder (none when it does not exist). */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * Runs `work` against the built server started on a fresh, empty data directory (and `env`, e.g. a
 * DATABASE_URL); stops the server and removes the directory afterwards, also when `work` throws or
 * the run is interrupted.
 */
export async function withServer<T>(
  prefix: string,
  work: (server: RunningServer, startupMs: number) => Promise<T>,
  env: NodeJS.ProcessEnv = {},
  options: { aceptarPrivacidad?: boolean } = {},
): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const started = performance.now();
  const starting = startServer({ dataDir, env, ...options });
  const cleanup = async () => {
    const server = await starting.catch(() => undefined);
    await server?.stop();
    removeDir(dataDir);
  };
  const interrupted = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const server = await starting;
    return await work(server, performance.now() - started);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanup();
  }
}

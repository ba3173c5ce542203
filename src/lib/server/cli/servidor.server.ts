/**
 * The running server on this data directory, for the commands that must go through it while it
 * holds the embedded database (`npm run usuarios`, `npm run respaldo`; decision 0047): from its
 * lock record (waiting while it is still starting), else at its configured HOST and PORT, since the
 * record can be lost under a running server.
 */
import { ADMIN_KEY_HEADER } from '../api/acceso-admin.server.ts';
import type { Config } from '../config.server.ts';
import { localUrl, readLock } from '../data-dir-lock.server.ts';

/** Whether the server at `url` knows this data directory's admin key, i.e. uses this data directory. */
async function usaEsteDataDir(url: string, adminKey: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/api/admin/usuarios/', url), {
      headers: { [ADMIN_KEY_HEADER]: adminKey },
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** The server's address, or null when none runs on this data directory. */
export async function servidorEnEjecucion(config: Config, adminKey: string): Promise<string | null> {
  for (let espera = 0; espera < 60; espera++) {
    const lock = readLock(config.dataDir);
    if (lock?.url.startsWith('http')) return lock.url;
    if (!lock) {
      const configurada = localUrl(config.HOST, config.PORT);
      return (await usaEsteDataDir(configurada, adminKey)) ? configurada : null;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('El servidor sigue iniciándose; inténtalo de nuevo en unos segundos.');
}

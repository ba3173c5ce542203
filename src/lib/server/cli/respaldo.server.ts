/**
 * `npm run respaldo`: makes a backup now (issue 28, docs/decisions/0048) into RESPALDOS_DIR and
 * prints where. With the embedded database and a server running, the server makes it (the
 * database admits one process; `POST /api/admin/respaldos/` with the local admin key); otherwise
 * this process opens the database itself (PostgreSQL, or a stopped installation).
 */
import path from 'node:path';
import { formatearNumero } from '../../format/index.ts';
import { ADMIN_KEY_HEADER } from '../api/acceso-admin.server.ts';
import { ApiError } from '../api/errors.server.ts';
import { loadConfig } from '../config.server.ts';
import { persistentSecret } from '../data-dir.server.ts';
import { acquireLock } from '../data-dir-lock.server.ts';
import { createLogger } from '../log.server.ts';
import { createRuntime } from '../runtime.server.ts';
import { dirRespaldos, type Respaldo } from '../services/respaldos.server.ts';
import { servidorEnEjecucion } from './servidor.server.ts';

const megas = (bytes: number) => `${formatearNumero(bytes / 1024 / 1024)} MB`;

async function porElServidor(url: string, adminKey: string): Promise<Respaldo> {
  let response: Response;
  try {
    response = await fetch(new URL('/api/admin/respaldos/', url), { method: 'POST', headers: { [ADMIN_KEY_HEADER]: adminKey } });
  } catch (error) {
    throw new Error(`No se pudo contactar al servidor en ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const cuerpo = (await response.json().catch(() => ({}))) as Partial<Respaldo> & { detail?: string };
  if (response.status !== 201) throw new Error(cuerpo.detail ?? `El servidor respondió ${response.status}.`);
  return cuerpo as Respaldo;
}

async function run(): Promise<number> {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'debug' ? 'debug' : 'warn', { service: 'cli' });
  const adminKey = config.DATABASE_URL ? '' : persistentSecret(config.dataDir, 'admin-key');
  const server = config.DATABASE_URL ? null : await servidorEnEjecucion(config, adminKey);
  let respaldo: Respaldo;
  if (server) {
    respaldo = await porElServidor(server, adminKey);
  } else {
    // Refused (DataDirBusyError) while another process holds the data directory.
    const lock = config.DATABASE_URL ? null : await acquireLock(config.dataDir, 'npm run respaldo');
    try {
      const runtime = await createRuntime(config, log, { servicio: 'cli' });
      try {
        respaldo = await runtime.services.respaldos.crear({ id: null });
      } catch (error) {
        if (error instanceof ApiError) throw new Error(error.body.detail);
        throw error;
      } finally {
        await runtime.close();
      }
    } finally {
      lock?.release();
    }
  }
  process.stdout.write(`Respaldo creado: ${path.join(dirRespaldos(config), respaldo.nombre)} (${megas(respaldo.bytes)})\n`);
  return 0;
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

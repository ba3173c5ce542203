/**
 * The process entry point (`npm start` runs it after the build): takes the data directory,
 * migrates and seeds the database, starts the job worker and serves the built site and the API
 * on one port.
 */
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRODUCTO } from '../marca.ts';
import { loadConfig } from './config.server.ts';
import { acquireLock, DataDirBusyError, paths } from './data-dir.server.ts';
import { esRutaApi } from './http/rutas-api.server.ts';
import { createStaticHandler } from './http/static.server.ts';
import { createLogger } from './log.server.ts';
import { createRuntime, setRuntime } from './runtime.server.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => Promise<void>;

const root = path.resolve(import.meta.dirname, '../../..');

function banner(lines: string[]): void {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width + 2);
  process.stdout.write(`\n┌${rule}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${rule}┘\n\n`);
}

async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL, { service: 'web' });
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) throw new Error('The site is not built: run `npm run build` (or `npm start`, which builds first).');

  const lock = config.DATABASE_URL ? null : acquireLock(config.dataDir, 'starting');
  const runtime = await createRuntime(config, log);
  setRuntime(runtime);
  if (config.JOBS_IN_SERVER) runtime.jobs.start();

  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const serveStatic = createStaticHandler(path.join(root, 'dist/client'));

  const server = http.createServer(async (req, res) => {
    try {
      // API requests (video segments above all) skip the file lookups: no built file is there.
      const pathname = (req.url ?? '/').split('?')[0] ?? '/';
      if (!esRutaApi(pathname) && (await serveStatic(req, res))) return;
      await handler(req, res);
    } catch (error) {
      log.error('request failed', { error, url: req.url });
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Ocurrió un error inesperado.');
      } else res.destroy();
    }
  });
  server.requestTimeout = 10 * 60 * 1000; // large uploads on slow connections
  server.headersTimeout = 60 * 1000;
  server.keepAliveTimeout = 65 * 1000;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    server.close();
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 5000);
    await runtime.close().catch((error) => log.error('close failed', { error }));
    clearTimeout(force);
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  lock?.setUrl(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  log.info('listening', { host: config.HOST, port, database: runtime.database.kind, dataDir: config.dataDir });

  const lines = [`${PRODUCTO} está funcionando en ${config.PUBLIC_URL}`, ''];
  if (runtime.admin.generatedPassword) {
    lines.push(
      'Ingrese como administrador de demostración:',
      `  Correo:     ${runtime.admin.email}`,
      `  Contraseña: ${runtime.admin.generatedPassword}`,
    );
    lines.push('(Se muestra solo esta vez; cámbiela desde "¿Olvidaste tu Contraseña?".)');
  } else if (runtime.admin.created) {
    lines.push(`Ingrese con ADMIN_EMAIL (${runtime.admin.email}) y ADMIN_PASSWORD.`);
  } else {
    lines.push(
      `Administrador inicial: ${runtime.admin.email}`,
      'Si olvidó la contraseña, use "¿Olvidaste tu Contraseña?": el enlace queda en data/outbox.',
    );
  }
  lines.push('', 'Invitar docentes: npm run usuarios -- crear --email ... --nombres ... --apellidos ...');
  if (!config.SMTP_URL) lines.push(`Sin SMTP_URL: los correos quedan en ${paths(config.dataDir).outbox}`);
  banner(lines);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirBusyError) {
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(2);
  }
  process.stderr.write(`\nThe server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

/**
 * The web server process (`npm start` runs it under supervisor.server.ts after the build): takes
 * the data directory, migrates and seeds the database, starts the job worker and serves the built
 * site and the API on one port. It stops gracefully on SIGTERM/SIGINT (exit 0); an error nothing
 * caught is logged and ends it with 1 (the supervisor or systemd starts it again); a busy data
 * directory, a bad configuration or a missing build end it with 2 (starting again would not help).
 */
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PRODUCTO } from '../marca.ts';
import { type Config, exigirSecretoCompartido, loadConfig } from './config.server.ts';
import { paths } from './data-dir.server.ts';
import { acquireLock, DataDirBusyError, type Lock, localUrl } from './data-dir-lock.server.ts';
import { cambiosDe } from './db/cambios.server.ts';
import { createApiHandler } from './http/api-node.server.ts';
import { answerJson, configureServer, currentRequestId, guard, type HttpLimits } from './http/guard.server.ts';
import { hstsPara } from './http/headers.server.ts';
import { createCachePaginas } from './http/paginas.server.ts';
import { esRutaApiEnrutable, vaALaApi } from './http/rutas-api.server.ts';
import { createStaticHandler } from './http/static.server.ts';
import { uploadRequestLimit } from './http/upload.server.ts';
import { createLogger, type Logger } from './log.server.ts';
import { prepararHerramientas } from './media/instalar.server.ts';
import { limpiarAlQuedarOcioso } from './memoria.server.ts';
import { createRuntime, setRuntime } from './runtime.server.ts';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => Promise<void>;

/** How long a signed-in page is sent again unchanged (paginas.server.ts, decision 0046). */
const PAGINAS = { segundos: 2, maxSegundos: 30, max: 2_000, maxBytes: 32 * 1024 * 1024 };

const root = path.resolve(import.meta.dirname, '../../..');

function banner(lines: string[]): void {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width + 2);
  process.stdout.write(`\n┌${rule}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${rule}┘\n\n`);
}

/** Exit code for what starting again cannot fix: the supervisor and systemd do not restart it. */
const EXIT_DO_NOT_RESTART = 2;
/** How long in-flight requests may finish, and then the job runner its job, when the server stops. */
const SHUTDOWN_REQUESTS_MS = 10_000;
const SHUTDOWN_JOBS_MS = 10_000;

class StartupError extends Error {}

let log: Logger = createLogger('info', { service: 'web' });
let lock: Lock | null = null;

/** What nothing foresaw: logged with the request it happened in, when known, and the process ends. */
function fatal(msg: string, error: unknown): void {
  log.error(msg, { error, requestId: currentRequestId() });
  lock?.release();
  process.exit(1);
}

/** A client that went away mid-request: Astro's own listener already treats these as harmless. */
const clientGone = (reason: unknown) =>
  reason instanceof Error && (reason.name === 'AbortError' || (reason as NodeJS.ErrnoException).code === 'ECONNRESET');

process.on('uncaughtException', (error) => fatal('uncaught exception', error));
process.on('unhandledRejection', (reason) => {
  if (clientGone(reason)) log.debug('request aborted by the client', { error: reason, requestId: currentRequestId() });
  else fatal('unhandled rejection', reason);
});

function httpLimits(config: Config): HttpLimits {
  const largestUploadMb = Math.max(config.MAX_VIDEO_MB, config.MAX_MANUAL_MB, config.MAX_MATERIAL_MB, config.MAX_IMAGEN_MB);
  return {
    headersMs: 20_000,
    idleBodyMs: config.REQUEST_IDLE_SECONDS * 1000,
    requestMs: config.REQUEST_TIMEOUT_SECONDS * 1000,
    maxBodyBytes: uploadRequestLimit(largestUploadMb * 1024 * 1024),
    lingerMs: 2000,
  };
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves when `done()` holds, or after `ms`; true when it held. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await delay(50);
  return done();
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
    exigirSecretoCompartido(config);
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error));
  }
  log = createLogger(config.LOG_LEVEL, { service: 'web' });
  const entry = path.join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) throw new StartupError('The site is not built: run `npm run build` (or `npm start`, which builds first).');

  // Lost to another live process (decision 0047): not one more write to the database it now holds.
  const onLost = (error: Error) => {
    log.error('data directory taken by another process; stopping at once', { error });
    process.exit(1);
  };
  lock = config.DATABASE_URL ? null : await acquireLock(config.dataDir, 'starting', { log, onLost });
  const runtime = await createRuntime(config, log);
  setRuntime(runtime);
  if (config.JOBS_IN_SERVER) runtime.jobs.start();

  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const serveStatic = createStaticHandler(path.join(root, 'dist/client'));
  const limits = httpLimits(config);
  const serveApi = createApiHandler(runtime.api.app, config.TRUST_PROXY, limits.lingerMs);
  const paginas = createCachePaginas({ ...PAGINAS, cambios: cambiosDe(runtime.database.db), keys: runtime.api.keys, now: Date.now });
  const hsts = hstsPara(config.PUBLIC_URL);
  const limpieza = limpiarAlQuedarOcioso();
  let inFlight = 0;
  let closing = false;
  const server = http.createServer({ connectionsCheckingInterval: 5000 }, (req, res) => {
    inFlight += 1;
    limpieza.actividad();
    if (hsts) res.setHeader('strict-transport-security', hsts);
    res.once('close', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    const serve = async () => {
      try {
        // API requests (video segments above all) go straight to the API: no built file or page
        // is there, and this is the API's one way in (decisions 0040, 0051).
        const pathname = (req.url ?? '/').split('?')[0] ?? '/';
        if (vaALaApi(pathname)) {
          if (!esRutaApiEnrutable(pathname)) return answerJson(res, 404, `No existe el recurso ${req.method} ${pathname}`);
          return await paginas.atender(req, res, (locals) => serveApi(req, res, locals.pagina));
        }
        if (await serveStatic(req, res)) return;
        await paginas.atender(req, res, (locals) => handler(req, res, undefined, locals));
      } catch (error) {
        log.error('request failed', { error, url: req.url, requestId: currentRequestId() });
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Ocurrió un error inesperado.');
        } else res.destroy();
      }
    };
    const onTimeout = (kind: string) => log.info('request timed out', { kind, url: req.url, requestId: req.headers['x-request-id'] });
    void guard(req, res, limits, serve, onTimeout).finally(() => {
      inFlight -= 1;
    });
  });
  configureServer(server, limits);

  // Stop accepting, let requests in flight finish (bounded), then the jobs and the database.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal, inFlight });
    server.close();
    server.closeIdleConnections();
    if (!(await waitUntil(() => inFlight === 0, SHUTDOWN_REQUESTS_MS))) {
      log.warn('requests still in flight; closing their connections', { inFlight });
      server.closeAllConnections();
      await waitUntil(() => inFlight === 0, 2000);
    }
    await runtime.close({ graceMs: SHUTDOWN_JOBS_MS }).catch((error) => log.error('close failed', { error }));
    lock?.release();
    log.info('stopped', { signal });
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
  lock?.setUrl(localUrl(config.HOST, port));
  log.info('listening', { host: config.HOST, port, database: runtime.database.kind, dataDir: config.dataDir });

  const lines = [`${PRODUCTO} está funcionando en ${config.PUBLIC_URL}`, ''];
  if (runtime.admin.generatedPassword) {
    lines.push(
      'Ingresa como administrador de demostración:',
      `  Correo:     ${runtime.admin.email}`,
      `  Contraseña: ${runtime.admin.generatedPassword}`,
    );
    lines.push('(Se muestra solo esta vez; cámbiala desde "¿Olvidaste tu Contraseña?".)');
  } else if (runtime.admin.created) {
    lines.push(`Ingresa con ADMIN_EMAIL (${runtime.admin.email}) y ADMIN_PASSWORD.`);
  } else {
    lines.push(
      `Administrador inicial: ${runtime.admin.email}`,
      'Si olvidaste la contraseña, usa "¿Olvidaste tu Contraseña?": el enlace queda en data/outbox.',
    );
  }
  if (config.TOTP_ADMIN_OBLIGATORIO) {
    lines.push('Al ingresar como administrador te pediremos activar la verificación en dos pasos con una app de autenticación.');
  }
  const herramientas = prepararHerramientas(runtime.herramientas.herramientas, { permitida: config.INSTALAR_HERRAMIENTAS, log });
  if (herramientas.length > 0) lines.push('', ...herramientas);
  lines.push('', 'Invitar docentes: npm run usuarios -- crear --email ... --nombres ... --apellidos ...');
  if (!config.SMTP_URL) {
    // The mail goes out from whichever process runs the jobs: with JOBS_IN_SERVER=false, the worker.
    const donde = config.JOBS_IN_SERVER ? paths(config.dataDir).outbox : 'la carpeta outbox del DATA_DIR del worker (npm run worker)';
    lines.push(`Sin SMTP_URL: los correos quedan en ${donde}`);
  }
  banner(lines);
}

main().catch((error: unknown) => {
  if (error instanceof DataDirBusyError || error instanceof StartupError) {
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(EXIT_DO_NOT_RESTART);
  }
  lock?.release();
  process.stderr.write(`\nThe server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

/**
 * `npm run worker`: runs the job queue (video transcoding, the mail outbox and other background
 * work) in its own process, for deployments on PostgreSQL where web servers set
 * JOBS_IN_SERVER=false. SIGTERM (or SIGINT) lets the running job finish within STOP_GRACE_MS,
 * otherwise gives it back to the queue for another worker, then exits.
 */
import { exigirSecretoCompartido, loadConfig } from './config.server.ts';
import { STOP_GRACE_MS } from './jobs/runner.server.ts';
import { createLogger } from './log.server.ts';
import { prepararHerramientas } from './media/instalar.server.ts';
import { createRuntime } from './runtime.server.ts';

const config = loadConfig();
if (!config.DATABASE_URL) {
  process.stderr.write('npm run worker needs DATABASE_URL: with the embedded database the server runs the jobs itself.\n');
  process.exit(2);
}
try {
  exigirSecretoCompartido(config);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const log = createLogger(config.LOG_LEVEL, { service: 'worker' });
const runtime = await createRuntime(config, log, { servicio: 'worker' });
runtime.jobs.start();
log.info('worker started', { runner: runtime.jobs.id });
// The worker transcodes: without ffmpeg it says so, and installs it when it may.
prepararHerramientas(runtime.herramientas.herramientas, { permitida: config.INSTALAR_HERRAMIENTAS, log });
let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('worker stopping', { signal, graceMs: STOP_GRACE_MS });
  await runtime.close({ graceMs: STOP_GRACE_MS }).catch((error: unknown) => log.error('close failed', { error }));
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

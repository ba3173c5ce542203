/**
 * `npm run worker`: runs the job queue (video transcoding and other background work) in its own
 * process, for deployments on PostgreSQL where web servers set JOBS_IN_SERVER=false.
 */
import { loadConfig } from './config.server.ts';
import { createLogger } from './log.server.ts';
import { createRuntime } from './runtime.server.ts';

const config = loadConfig();
if (!config.DATABASE_URL) {
  process.stderr.write('npm run worker needs DATABASE_URL: with the embedded database the server runs the jobs itself.\n');
  process.exit(2);
}
const log = createLogger(config.LOG_LEVEL, { service: 'worker' });
const runtime = await createRuntime(config, log);
runtime.jobs.start();
log.info('worker started');
const stop = async () => {
  await runtime.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

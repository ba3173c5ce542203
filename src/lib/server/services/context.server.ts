/** What every service receives: passed in as arguments so tests can build their own. */
import type { Config } from '../config.server.ts';
import type { Db } from '../db/client.server.ts';
import type { JobRunner } from '../jobs/runner.server.ts';
import type { Logger } from '../log.server.ts';
import type { Verificador } from '../media/herramientas.server.ts';
import type { Storage } from '../storage/storage.server.ts';

/** Services never send mail themselves: they queue it (mail/outbox.server.ts) in their transaction. */
export interface ServiceContext {
  db: Db;
  log: Logger;
  config: Pick<
    Config,
    'PUBLIC_URL' | 'HELP_EMAIL' | 'MAX_VIDEO_MB' | 'MAX_MANUAL_MB' | 'MAX_MATERIAL_MB' | 'MAX_IMAGEN_MB' | 'MOCHILA_DIRECTA_MB'
  >;
  storage: Storage;
  /** The media tools this process found, and whether they run (issue 28). */
  herramientas: Verificador;
  /** Background work: services enqueue jobs; their handlers (a service's `trabajos`) are registered by services.server.ts. */
  jobs: Pick<JobRunner, 'enqueue'>;
  /** HMAC key for access tokens. */
  jwtSecret: string;
  now: () => Date;
}

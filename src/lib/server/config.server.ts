/**
 * Process configuration, parsed once from the environment. A wrong value stops the process at
 * start-up with a message that names the variable, instead of failing later in a request.
 */
import path from 'node:path';
import { z } from 'zod';
import { proveedoresOidcSchema } from './auth/oidc-proveedores.server.ts';

const optional = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('127.0.0.1'),
  /** Unset: http://localhost:{PORT}, so links in emails reach a server started on another port. */
  PUBLIC_URL: optional.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional.pipe(z.url().optional()),
  SMTP_URL: optional.pipe(z.url().optional()),
  MAIL_FROM: z.string().default('Entre Docentes <no-responder@entredocentes.cl>'),
  HELP_EMAIL: z.email().default('ayuda@entredocentes.cl'),
  /**
   * The media tools (issue 28, decision 0049): unset, the system's on PATH and otherwise the ones
   * `npm ci` brought; set, exactly that command (ffprobe beside an FFMPEG_PATH named ffmpeg, pdfinfo
   * beside PDFTOPPM_PATH).
   */
  FFMPEG_PATH: optional,
  FFPROBE_PATH: optional,
  PDFTOPPM_PATH: optional,
  /** Without ffmpeg, install Debian's with apt-get at start-up when running as root (issue 28). */
  INSTALAR_HERRAMIENTAS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  ADMIN_EMAIL: optional.pipe(z.email().optional()),
  ADMIN_PASSWORD: optional,
  JWT_SECRET: optional.pipe(z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional()),
  /**
   * Where files live (issue 19, decision 0042): `file:` (DATA_DIR/files) or an S3-compatible
   * bucket, `s3://bucket?endpoint=https://...&region=...&forcePathStyle=true`, with the
   * credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
   */
  STORAGE_URL: z
    .string()
    .trim()
    .default('file:')
    .refine((v) => v === '' || v === 'file:' || /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\?.*)?$/.test(v), {
      message: 'STORAGE_URL must be file: or s3://bucket?endpoint=...&region=...',
    })
    .transform((v) => v || 'file:'),
  /**
   * Seconds a direct link to the bucket lives (0, the default: the server streams every file).
   * Above 0, with an s3:// STORAGE_URL, downloads, manuals and video segments answer with a
   * redirect to a presigned URL that lives this long, after the same permission checks.
   */
  STORAGE_PRESIGNED_SECONDS: z.coerce.number().int().min(0).max(3600).default(0),
  /** A CDN in front of the bucket: presigned links point at it instead of the bucket's endpoint. */
  STORAGE_PUBLIC_URL: optional.pipe(z.url().optional()),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Open reports from different people that hide an item until an admin decides (issue 17). */
  DENUNCIAS_PARA_OCULTAR: z.coerce.number().int().min(1).max(1000).default(3),
  /** Upload limits in megabytes. */
  MAX_VIDEO_MB: z.coerce.number().positive().default(2048),
  MAX_MANUAL_MB: z.coerce.number().positive().default(200),
  MAX_MATERIAL_MB: z.coerce.number().positive().default(100),
  MAX_IMAGEN_MB: z.coerce.number().positive().default(10),
  /**
   * A mochila (issue 35) up to this many megabytes streams on request; a larger one is built by a
   * background job into storage first (decision 0076).
   */
  MOCHILA_DIRECTA_MB: z.coerce.number().nonnegative().default(50),
  /**
   * Reverse proxies in front of the server: `false`/0 (default) uses the socket's address; `true`
   * (one proxy) or N reads the client address from X-Forwarded-For, N entries from the right.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|\d)?$/, 'TRUST_PROXY must be false, true or the number of proxies (0-9)')
    .default('false')
    .transform((v) => (v === 'true' ? 1 : v === 'false' || v === '' ? 0 : Number(v))),
  /**
   * Requests one address with no session may make in a minute to the public pages and the public
   * files they link (issue 34, decision 0068); then a 429 with Retry-After. 0 turns it off.
   */
  PUBLICO_POR_MINUTO: z.coerce.number().int().min(0).max(1_000_000).default(300),
  /** HTTP timeouts in seconds (decision 0020): silence while a body arrives; a whole request that is not an upload. */
  REQUEST_IDLE_SECONDS: z.coerce.number().positive().default(30),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
  /** Backups (issue 28, decision 0048): where archives are written (default DATA_DIR/respaldos) and how many of the newest are kept. */
  RESPALDOS_DIR: optional,
  RESPALDOS_CONSERVAR: z.coerce.number().int().min(1).max(1000).default(7),
  /** Days sign-in addresses and browsers are kept before the 'retencion-direcciones' job blanks them (issue 31). */
  RETENCION_DIRECCIONES_DIAS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * Sign-in with a school account (issue 32, decision 0063): a JSON array of OpenID Connect
   * providers, `[{ "id", "nombre", "issuer", "client_id", "client_secret", "dominios": [..] }]`.
   */
  OIDC_PROVEEDORES: proveedoresOidcSchema,
  /** Run the job worker inside the web server (default) or only in `npm run worker`. */
  JOBS_IN_SERVER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Admins must enrol a second factor (TOTP, issue 32): an admin without one who signs in is sent
   * to /perfil/segundo-factor/ by every page until they enrol.
   */
  TOTP_ADMIN_OBLIGATORIO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});

/** The environment variables the process reads (the README's table lists each one). */
export const VARIABLES = Object.keys(schema.shape);

export type Config = z.infer<typeof schema> & { dataDir: string; PUBLIC_URL: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { data } = parsed;
  return { ...data, PUBLIC_URL: data.PUBLIC_URL ?? `http://localhost:${data.PORT}`, dataDir: path.resolve(data.DATA_DIR) };
}

/**
 * For the processes that sign or check sessions (web servers, workers, the runtime of a CLI).
 * Several processes on one PostgreSQL must use the same key: a secret generated in each one's
 * data directory would sign a person out whenever a request changed server. Tools that only read
 * files (`npm run miniaturas`, `npm run migrate-storage`) do not ask for it.
 */
export function exigirSecretoCompartido(config: Pick<Config, 'DATABASE_URL' | 'JWT_SECRET'>): void {
  if (config.DATABASE_URL && !config.JWT_SECRET) {
    throw new Error('Invalid configuration:\n  JWT_SECRET: required with DATABASE_URL (every server and worker must share it)');
  }
}

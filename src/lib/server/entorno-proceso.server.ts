/**
 * The environment the web server and the worker are started with (decision 0085). glibc gives
 * each thread that allocates at once an arena of its own, up to eight per core, and keeps their
 * freed pages: the threads that hash passwords (argon2id, 19 MiB each), compress answers and read
 * files leave tens of megabytes apiece behind. Two arenas keep the process's resident memory
 * within issue 36's 600 MB at 100x (measured on PostgreSQL, 20 clients: 661 MB without, 533 with,
 * the same latencies). glibc reads the variable when the process starts, so it is set by whoever
 * starts the server: the supervisor (`npm start`, `npm run serve`), the test and bench harness,
 * the Dockerfile and the systemd units of docs/deploy.md. A value already set wins.
 *
 * A fixed 4 MiB threshold for mmap and trim (decision 0085, amended): glibc otherwise raises its
 * mmap threshold past the largest block freed, argon2id's 19 MiB, and from then on keeps those
 * blocks in the arenas. Above 4 MiB they go back to the system when freed: about 60 MB less at
 * 100x on PGlite (561-565 MB against 624-650), 7 ms more per password hash; brotli's and gzip's
 * states stay below it, so answers compress as fast as before.
 */
export const ENTORNO_DEL_SERVIDOR: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '4194304',
  MALLOC_TRIM_THRESHOLD_: '4194304',
};

/** `env` with the server's defaults for what it does not set. */
export const conEntornoDelServidor = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...ENTORNO_DEL_SERVIDOR, ...env });

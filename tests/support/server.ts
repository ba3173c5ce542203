/**
 * Starts the built server (`node src/lib/server/main.server.ts`, as `npm start` does after the
 * build) on a free port and a fresh data directory, and reads what it mailed from the outbox
 * (waiting for it: the job runner sends mail right after the request that queued it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { conEntornoDelServidor } from '../../src/lib/server/entorno-proceso.server.ts';

export const root = path.resolve(import.meta.dirname, '../..');
export const ADMIN = { email: 'admin@example.cl', password: 'Admin12345' };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * An empty PGlite cluster, as a new server's `openDatabase` makes it in its data directory, made
 * once per test process in a process of its own (so this one loads no WebAssembly database), for
 * the second and later servers a process starts on new data directories (a process that starts
 * one would only pay for it). PGlite's initdb takes about 4.4 s of a new server's 10 s start on
 * this machine; making the cluster 7.6 s; a copy of its 43 MB a tenth of a second. Nothing is
 * migrated or seeded in it: a server started on a copy migrates and seeds it as on a fresh
 * installation.
 */
let nuevos = 0;
let clusterVacio: Promise<string> | undefined;
function clusterInicial(): Promise<string> {
  clusterVacio ??= new Promise((resolve, reject) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-cluster-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const crear = `const { openDatabase } = await import('./src/lib/server/db/client.server.ts');
      await (await openDatabase({ pgliteDir: process.argv[1] })).close();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', crear, path.join(dir, 'pglite')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let error = '';
    child.stderr.on('data', (d) => {
      error += d;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(path.join(dir, 'pglite')) : reject(new Error(`the empty cluster failed (${code}):\n${error}`)),
    );
  });
  return clusterVacio;
}

/**
 * A new data directory gets a copy of the empty cluster above (from a process's second one on)
 * unless `clusterNuevo`: the suite's own server (tests/e2e/global-setup.ts) starts on a data
 * directory with nothing in it, PGlite's initdb included, as `npm start` does on a fresh machine.
 * `aceptarPrivacidad` (default true): the seeded admin accepts the privacy notice once the server
 * is up; false leaves it to the caller (the size budgets measure the acceptance page first).
 * TOTP_ADMIN_OBLIGATORIO is 'false' unless `env` says otherwise: the suites sign in as the seeded
 * admin, who has no second factor (tests/e2e/segundo-factor.test.ts turns it on).
 */
export async function startServer(
  options: { dataDir?: string; env?: NodeJS.ProcessEnv; aceptarPrivacidad?: boolean; port?: number; clusterNuevo?: boolean } = {},
): Promise<RunningServer> {
  let dataDir = options.dataDir;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ed-e2e-'));
    nuevos += 1;
    if (!options.clusterNuevo && nuevos > 1) cpSync(await clusterInicial(), path.join(dataDir, 'pglite'), { recursive: true });
  }
  // A port chosen beforehand when something else must know the address first (an OpenID Connect provider's redirect URI).
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = conEntornoDelServidor({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    TOTP_ADMIN_OBLIGATORIO: 'false',
    ...options.env,
  });
  const child = spawn(process.execPath, ['src/lib/server/main.server.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      // Not left running behind the failed test.
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (options.aceptarPrivacidad !== false) await adminAceptaPrivacidad(url);
  return {
    url,
    dataDir,
    env,
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * The seeded admin accepts the privacy notice (issue 31), as they would on the acceptance page at
 * their first sign-in, so the suite's pages open without it (tests/e2e/privacidad.test.ts covers
 * that page). A server started with other credentials keeps its admin as it is.
 */
export async function adminAceptaPrivacidad(url: string): Promise<void> {
  const login = await fetch(`${url}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (login.status !== 200) return;
  const { access } = (await login.json()) as { access: string };
  const aceptada = await fetch(`${url}/api/privacidad/aceptar/`, { method: 'POST', headers: { authorization: `Bearer ${access}` } });
  if (aceptada.status !== 200) throw new Error(`the admin could not accept the privacy notice: ${aceptada.status}`);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  link: string | undefined;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Every message in DATA_DIR/outbox, oldest first, with its first http link. */
export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files.map((name) => {
    const raw = readFileSync(path.join(dir, name), 'utf8');
    const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
    const header = (n: string) => decodeHeader(new RegExp(`^${n}: (.*)$`, 'mi').exec(unfolded)?.[1]?.trim() ?? '');
    const plain = /Content-Type: text\/plain[\s\S]*?\r?\n\r?\n([\s\S]*?)\r?\n--/i.exec(raw)?.[1] ?? '';
    const text = /quoted-printable/i.test(raw) ? decodeQuotedPrintable(plain) : plain;
    return { file: name, to: header('To'), subject: header('Subject'), text, link: /https?:\/\/\S+/.exec(text)?.[0] };
  });
}

/**
 * Mail is sent by the server's job runner right after the request that queued it: waits (polls)
 * for the newest outbox message that matches, up to `timeoutMs`.
 */
export async function waitForMail(dataDir: string, matches: (m: OutboxMail) => boolean, timeoutMs = 10_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readOutbox(dataDir).filter(matches).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error('no such mail arrived in the outbox');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The link of the last mail sent to an address whose link path starts with `ruta` (an invitation
 * by default, '/cambiar-contraseña/' for a password reset), waiting for it to arrive.
 */
export async function lastLinkTo(dataDir: string, email: string, ruta = '/activar-cuenta/'): Promise<string> {
  const mail = await waitForMail(
    dataDir,
    (m) => m.to.includes(email) && !!m.link && decodeURI(new URL(m.link).pathname).startsWith(ruta),
  ).catch(() => undefined);
  if (!mail?.link) throw new Error(`no mail with a ${ruta} link was sent to ${email}`);
  return mail.link;
}

/** Runs `npm run usuarios -- …` the way an admin would, against the server's data directory. */
/** Runs one of the project's command-line tools (the admin CLI unless `script` names another) to its end. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  script = 'src/lib/server/cli/usuarios.server.ts',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

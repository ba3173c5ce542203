/**
 * `npm test`: the whole suite. Lint and the contract's generated types first (seconds), then the
 * build and its size budgets; then two lanes side by side, one a core each (docs/decisions/0060):
 *
 * - in process: the types, then the unit and API projects (PGlite in the test process), then,
 *   when `.ci/run` asks for them, the API suite on PostgreSQL (`TEST_POSTGRES_URL`) and the
 *   storage-heavy API files on an S3 bucket (`TEST_S3_FILES`), then a second group of browser
 *   files against a built server of their own (decision 0073);
 * - against the built server: the other browser files, fuzz and deployment, one file at a time.
 *
 * A lane's output is printed as it comes, each line prefixed with the lane's name. It installs the
 * Debian packages the browser and media tests need when they are missing and it runs as root.
 */
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM } from '../tests/support/browser.ts';

const root = path.resolve(import.meta.dirname, '..');
const needed = [
  { bin: CHROMIUM, pkg: 'chromium' },
  { bin: '/usr/bin/ffmpeg', pkg: 'ffmpeg' },
  { bin: '/usr/bin/pdftoppm', pkg: 'poppler-utils' },
];

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  process.stdout.write(`\n▶ ${title}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`\n✗ ${title} failed (${seconds} s)\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`✓ ${title} (${seconds} s)\n`);
}

function ensureSystemPackages(): void {
  const missing = needed.filter((n) => !existsSync(n.bin));
  if (missing.length === 0) return;
  const names = missing.map((m) => m.pkg);
  if (process.getuid?.() !== 0) {
    process.stderr.write(`Missing system packages: ${names.join(', ')}. Install them with: sudo apt-get install -y ${names.join(' ')}\n`);
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get update', 'apt-get', ['update', '-qq'], env);
  run(`apt-get install ${names.join(' ')}`, 'apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], env);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

interface Resumen {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

/** One step of a lane: a command, or a vitest run whose JSON report is added to the totals. */
interface Paso {
  title: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  vitest?: boolean;
}

const reportDir = mkdtempSync(path.join(os.tmpdir(), 'ed-vitest-'));
let reports = 0;

function vitestRun(title: string, args: string[], env?: NodeJS.ProcessEnv): Paso {
  return { title, command: bin('vitest'), args: ['run', ...args], env, vitest: true };
}

/** Runs one step with its output prefixed; resolves with its exit status. */
function paso(lane: string, step: Paso): Promise<{ ok: boolean; report?: string }> {
  const report = step.vitest ? path.join(reportDir, `report-${++reports}.json`) : undefined;
  const args = report ? [...step.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`] : step.args;
  const options: SpawnOptions = { cwd: root, env: step.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] };
  const started = Date.now();
  process.stdout.write(`[${lane}] ▶ ${step.title}\n`);
  return new Promise((resolve) => {
    const child = spawn(step.command, args, options);
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`[${lane}] ${line}\n`);
      });
      stream?.on('end', () => pending && process.stdout.write(`[${lane}] ${pending}\n`));
    }
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`[${lane}] ${code === 0 ? '✓' : '✗'} ${step.title} (${seconds} s)\n`);
      resolve({ ok: code === 0, report });
    });
  });
}

/** A lane runs its steps in order and stops at the first that fails. */
async function carril(lane: string, steps: Paso[]): Promise<{ ok: boolean; reports: string[] }> {
  const hechos: string[] = [];
  for (const step of steps) {
    const { ok, report } = await paso(lane, step);
    if (report) hechos.push(report);
    if (!ok) return { ok: false, reports: hechos };
  }
  return { ok: true, reports: hechos };
}

ensureSystemPackages();
run('lint and format', npm, ['run', '-s', 'lint']);
run('generated API types match openapi.yaml', npm, ['run', '-s', 'openapi:check']);
run('build', npm, ['run', '-s', 'build']);
run('size budgets', npm, ['run', '-s', 'budgets']);

const enProceso: Paso[] = [
  // The build has written Astro's generated types: the check reads them rather than racing to write them again.
  // It type-checks every .ts file tsconfig.json includes as well as the .astro ones, with tsc's
  // diagnostics, so `tsc --noEmit` (`npm run typecheck`'s second half) would only repeat it (decision 0095).
  { title: 'types (astro check: .astro and .ts)', command: bin('astro'), args: ['check', '--noSync', '--minimumSeverity', 'error'] },
  vitestRun('unit and API (PGlite)', ['--project', 'unit', '--project', 'api']),
];
const postgres = process.env.TEST_POSTGRES_URL;
if (postgres) enProceso.push(vitestRun('API on PostgreSQL', ['--project', 'api'], { ...process.env, DATABASE_URL: postgres }));
// Lighthouse times the main thread: it runs alone once both lanes are done (decision 0060).
const LIGHTHOUSE = 'tests/e2e/lighthouse.test.ts';
/**
 * Browser files run in a vitest run of their own with its own built server (decision 0073). Chosen
 * by length in a measured run (435 s of a busy run's 3,713), so they can move to whichever lane is
 * shorter.
 */
const SEGUNDO_GRUPO = ['accesibilidad', 'pantallas-docente'].map((nombre) => `tests/e2e/${nombre}.test.ts`);
const servidor: Paso[] = [
  vitestRun('browser, fuzz and deployment (built server)', [
    '--project',
    'e2e',
    '--project',
    'fuzz',
    '--project',
    'despliegue',
    ...[LIGHTHOUSE, ...SEGUNDO_GRUPO].flatMap((archivo) => ['--exclude', archivo]),
  ]),
];
const s3 = process.env.TEST_S3_FILES?.split(/\s+/).filter(Boolean) ?? [];
if (s3.length > 0) {
  const { DATABASE_URL: _pg, ...sinBase } = process.env;
  enProceso.push(vitestRun('storage-heavy API files on S3 (s3rver)', ['--project', 'api', ...s3], { ...sinBase, TEST_STORAGE: 's3' }));
}
/**
 * Which lane takes the second browser group is decided by the last measured run (decision 0073):
 * with the API files sharing their worker's modules (decision 0094) the in-process lane is the
 * shorter by more than the group (about 435 s), so the group ends it.
 */
enProceso.push(vitestRun('browser, second group (built server)', ['--project', 'e2e', ...SEGUNDO_GRUPO]));

const carriles = await Promise.all([carril('proceso', enProceso), carril('servidor', servidor)]);
if (carriles.every((c) => c.ok))
  carriles.push(await carril('solo', [vitestRun('Lighthouse, alone on the machine', ['--project', 'e2e', LIGHTHOUSE])]));
const summary: Resumen = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
let completos = true;
for (const report of carriles.flatMap((c) => c.reports)) {
  try {
    const parte: Resumen = JSON.parse(readFileSync(report, 'utf8'));
    for (const k of Object.keys(summary) as (keyof Resumen)[]) summary[k] += parte[k];
  } catch {
    completos = false; // the run crashed before writing its report: its exit status tells
  }
}
rmSync(reportDir, { recursive: true, force: true });
const skipped = summary.numPendingTests + summary.numTodoTests;
process.stdout.write(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
const ok = carriles.every((c) => c.ok) && completos && summary.numFailedTests === 0 && skipped === 0;
process.exit(ok ? 0 : 1);

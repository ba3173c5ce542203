/**
 * `npm test`: the whole suite, in the order that fails fastest. Types, lint and the contract's
 * generated types first; then the build and its size budgets; then every vitest project (unit,
 * API in process, browser and HTTP against the built server). It installs the Debian packages
 * the browser and media tests need when they are missing and it runs as root.
 */
import { spawnSync } from 'node:child_process';
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
const vitest = path.join(root, 'node_modules/.bin/vitest');

ensureSystemPackages();
run('types', npm, ['run', '-s', 'typecheck']);
run('lint and format', npm, ['run', '-s', 'lint']);
run('generated API types match openapi.yaml', npm, ['run', '-s', 'openapi:check']);
run('build', npm, ['run', '-s', 'build']);
run('size budgets', npm, ['run', '-s', 'budgets']);

const reportDir = mkdtempSync(path.join(os.tmpdir(), 'ed-vitest-'));
const report = path.join(reportDir, 'report.json');
const tests = spawnSync(vitest, ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
  cwd: root,
  stdio: 'inherit',
});
let summary = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  /* the run crashed before writing its report: the exit status below tells */
}
rmSync(reportDir, { recursive: true, force: true });
const skipped = summary.numPendingTests + summary.numTodoTests;
process.stdout.write(`\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(tests.status === 0 && summary.numFailedTests === 0 && skipped === 0 ? 0 : 1);

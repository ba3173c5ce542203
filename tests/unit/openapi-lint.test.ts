/**
 * Redocly judges the contract (CONVENTIONS.md: a well-kept outside tool first): openapi.yaml must
 * pass its recommended rules, less the few `redocly.yaml` turns off with a reason.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

it('openapi.yaml pasa el lint de Redocly sin errores', () => {
  const run = spawnSync(process.execPath, [cli, 'lint', 'openapi.yaml', '--format=stylish'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
}, 30_000);

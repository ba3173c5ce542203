/**
 * The deployment suite runs the built server (`main.server.ts` serves dist/), as `npm test` leaves
 * it. Run on its own (`npx vitest run --project despliegue`) with no build yet, it builds first,
 * holding the lock the browser suite and other builds on this machine take around dist/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from '../support/server.ts';

export default function setup() {
  if (existsSync(path.join(root, 'dist/server/entry.mjs'))) return;
  execFileSync('flock', ['/tmp/ed-dist.lock', 'sh', '-c', 'test -f dist/server/entry.mjs || npm run -s build'], {
    cwd: root,
    stdio: 'inherit',
  });
}

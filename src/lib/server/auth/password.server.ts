/**
 * Password hashing with argon2id from node:crypto at OWASP's parameters (19 MiB, 2 passes,
 * parallelism 1), stored in PHC string format so the parameters can be raised later: a hash made
 * with older parameters still verifies, and `needsRehash` tells when to upgrade it.
 */
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';

const params = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

/**
 * Hashes that run at once (decision 0092): one per core, and always at least one of libuv's
 * threads (4 unless UV_THREADPOOL_SIZE says otherwise) left for files and compression. A hash is
 * pure CPU, so more at once on two cores only share them, each holding its 19 MiB the longer, and
 * leave no thread to read a file: twenty teachers signing in at once put the server's memory 80 MB
 * over its steady figure at 100x (issue 36).
 */
export const HASHES_A_LA_VEZ = Math.max(1, Math.min(availableParallelism(), (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 1));
let enCurso = 0;
const enEspera: (() => void)[] = [];

/** Hashes running now (for tests). */
export const hashesEnCurso = () => enCurso;

/** `f` once fewer than HASHES_A_LA_VEZ run; the ones waiting go in the order they came. */
async function porTurno<T>(f: () => Promise<T>): Promise<T> {
  if (enCurso < HASHES_A_LA_VEZ) enCurso++;
  else await new Promise<void>((listo) => enEspera.push(listo));
  try {
    return await f();
  } finally {
    // The turn passes straight to the next one waiting, so no newcomer takes it in between.
    const siguiente = enEspera.shift();
    if (siguiente) siguiente();
    else enCurso--;
  }
}

function derive(password: string, nonce: Buffer, p: { memory: number; passes: number; parallelism: number; tagLength: number }) {
  return porTurno(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        argon2('argon2id', { message: password, nonce, ...p }, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string): Promise<string> {
  const nonce = randomBytes(16);
  const tag = await derive(password, nonce, params);
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${b64(nonce)}$${b64(tag)}`;
}

const phc = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = phc.exec(stored);
  if (!m) return false;
  const [, memory, passes, parallelism, nonce, tag] = m;
  const expected = Buffer.from(tag ?? '', 'base64');
  const actual = await derive(password, Buffer.from(nonce ?? '', 'base64'), {
    memory: Number(memory),
    passes: Number(passes),
    parallelism: Number(parallelism),
    tagLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function needsRehash(stored: string): boolean {
  const m = phc.exec(stored);
  return !m || Number(m[1]) < params.memory || Number(m[2]) < params.passes;
}

/** A valid hash of a random password: verifying against it costs the same as a real account. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
}

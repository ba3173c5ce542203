/**
 * A pass-through stream that counts and hashes what flows through it: a file copied once is
 * checked by its size and SHA-256 without reading it again (backups, `npm run migrate-storage`).
 */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

export function sumador(): { transform: Transform; resultado: () => { bytes: number; sha256: string } } {
  const hash = createHash('sha256');
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { transform, resultado: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/**
 * `npm run bench -- subidas` (issue 18): a 1 GiB resumable upload (tus) sent to the running
 * server in 8 MiB PATCH requests, as a drop zone on a good link would, while the server's RSS is
 * sampled every 20 ms. The chunks go to disk as they arrive, so the rise over the idle baseline
 * must stay under 32 MB. The upload is cancelled (DELETE) at the end, freeing the disk.
 */
import { performance } from 'node:perf_hooks';
import type { Session } from '../../tests/support/client.ts';
import { rssMb } from './bench-servidor.ts';
import { formatTable } from './table.ts';

const TOTAL = 1024 ** 3;
const CHUNK = 8 * 1024 * 1024;
const TARGET_MB = 32;
const TUS = { 'tus-resumable': '1.0.0' };

const b64 = (s: string) => Buffer.from(s).toString('base64');

export interface CifrasSubida {
  baseline: number;
  peak: number;
  rise: number;
  seconds: number;
}

async function esperar(res: Response, status: number, what: string): Promise<Response> {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return res;
}

export async function benchSubidas(url: string, admin: Session, pid: number | undefined): Promise<CifrasSubida> {
  const auth = { ...TUS, authorization: `Bearer ${admin.access}` };
  const creada = await esperar(
    await fetch(`${url}/api/subidas/`, {
      method: 'POST',
      headers: {
        ...auth,
        'upload-length': String(TOTAL),
        'upload-metadata': `destino ${b64('capsula')},filename ${b64('grande.mp4')},filetype ${b64('video/mp4')}`,
      },
    }),
    201,
    'POST /api/subidas/',
  );
  const upload = `${url}${creada.headers.get('location')}/`;
  // An mp4 header, then zeros: the bytes do not matter to the store.
  const chunk = Buffer.alloc(CHUNK);
  Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex').copy(chunk);

  await new Promise((r) => setTimeout(r, 500));
  const baseline = rssMb(pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 20);
  const start = performance.now();
  try {
    for (let offset = 0; offset < TOTAL; offset += CHUNK) {
      // Halfway, ask where to continue, as a client resuming after a dropped connection does.
      if (offset === TOTAL / 2) {
        const head = await esperar(await fetch(upload, { method: 'HEAD', headers: auth }), 200, 'HEAD');
        if (Number(head.headers.get('upload-offset')) !== offset) throw new Error(`HEAD said ${head.headers.get('upload-offset')}`);
      }
      const body = offset + CHUNK <= TOTAL ? chunk : chunk.subarray(0, TOTAL - offset);
      const res = await esperar(
        await fetch(upload, {
          method: 'PATCH',
          headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body,
        }),
        204,
        `PATCH at ${offset}`,
      );
      if (Number(res.headers.get('upload-offset')) !== offset + body.length) throw new Error('the server did not store the whole chunk');
    }
  } finally {
    clearInterval(sampler);
    await fetch(upload, { method: 'DELETE', headers: auth });
  }
  return { baseline, peak, rise: peak - baseline, seconds: (performance.now() - start) / 1000 };
}

export function describirSubidas(c: CifrasSubida): string {
  const verdict = c.rise < TARGET_MB ? 'within' : 'OVER';
  return formatTable(
    ['1 GiB resumable upload (tus, 8 MiB PATCHes)', 'value'],
    [
      ['RSS rise over idle', `${c.rise.toFixed(1)} MB (${verdict} the ${TARGET_MB} MB target)`],
      ['idle / peak RSS', `${c.baseline.toFixed(0)} MB / ${c.peak.toFixed(0)} MB`],
      ['time', `${c.seconds.toFixed(1)} s (${(TOTAL / 1024 ** 2 / c.seconds).toFixed(0)} MB/s on loopback)`],
    ],
    ['left', 'left'],
  );
}

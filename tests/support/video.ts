/** Short real videos made with ffmpeg's test sources, for upload and playback tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function video(
  options: { width?: number; height?: number; seconds?: number; format?: 'mp4' | 'mov' | 'avi' | 'mpeg'; audio?: boolean } = {},
): Buffer {
  const { width = 320, height = 180, seconds = 2, format = 'mp4', audio = true } = options;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-video-'));
  const out = path.join(dir, `v.${format === 'mpeg' ? 'mpg' : format}`);
  const codec =
    format === 'mpeg' ? ['-c:v', 'mpeg2video'] : format === 'avi' ? ['-c:v', 'mpeg4'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'];
  const sound = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : [];
  const audioCodec = audio ? (format === 'mpeg' ? ['-c:a', 'mp2'] : ['-c:a', 'aac']) : [];
  try {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${width}x${height}:rate=25:duration=${seconds}`,
      ...sound,
      ...codec,
      ...audioCodec,
      '-shortest',
      out,
    ]);
    return readFileSync(out);
  } finally {
    // ffmpeg needs a file to write to; the caller only wants the bytes.
    rmSync(dir, { recursive: true, force: true });
  }
}

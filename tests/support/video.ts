/** Short real videos made with ffmpeg's test sources, for upload, playback and transcoding tests. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface VideoOptions {
  width?: number;
  height?: number;
  seconds?: number;
  format?: 'mp4' | 'mov' | 'avi' | 'mpeg';
  audio?: boolean;
  /** Frames per second, as ffmpeg reads it ('25', '30000/1001'). */
  rate?: string;
  /**
   * Camera-like: a test pattern under moving grain, kept at high quality (about 3 MB for 6 s at
   * 720p), so a rendition of it is much lighter than it.
   */
  grano?: boolean;
}

const run = promisify(execFile);

/** Runs ffmpeg without blocking the test's event loop (see `videoFile`). */
export const ffmpeg = async (args: string[]): Promise<void> => {
  await run('ffmpeg', args);
};

/**
 * Writes the video to `out` (its extension should match the format). Without blocking: a test
 * worker whose event loop stopped for the seconds ffmpeg takes under load came back to pooled
 * keep-alive connections the server had closed meanwhile, and its next request failed with
 * 'other side closed' (CI, issue 36, twentieth session).
 */
export async function videoFile(out: string, options: VideoOptions = {}): Promise<string> {
  const { width = 320, height = 180, seconds = 2, format = 'mp4', audio = true, rate = '25', grano = false } = options;
  const x264 = ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', ...(grano ? ['-preset', 'ultrafast', '-crf', '28'] : [])];
  const codec = format === 'mpeg' ? ['-c:v', 'mpeg2video'] : format === 'avi' ? ['-c:v', 'mpeg4'] : x264;
  const sound = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : [];
  const audioCodec = audio ? (format === 'mpeg' ? ['-c:a', 'mp2'] : ['-c:a', 'aac']) : [];
  await ffmpeg([
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `${grano ? 'testsrc2' : 'testsrc'}=size=${width}x${height}:rate=${rate}:duration=${seconds}`,
    ...sound,
    ...(grano ? ['-vf', 'noise=alls=8:allf=t'] : []),
    ...codec,
    ...audioCodec,
    '-shortest',
    out,
  ]);
  return out;
}

export async function video(options: VideoOptions = {}): Promise<Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-video-'));
  try {
    return await readFile(await videoFile(path.join(dir, `v.${options.format === 'mpeg' ? 'mpg' : (options.format ?? 'mp4')}`), options));
  } finally {
    // ffmpeg needs a file to write to; the caller only wants the bytes.
    rmSync(dir, { recursive: true, force: true });
  }
}

interface VideoStream {
  width: number;
  height: number;
  avg_frame_rate: string;
  profile: string;
  level: number;
}

export interface Sonda {
  duration: number;
  /** When the file's first packet is presented (format start_time), in seconds. */
  start: number;
  /** Whether the first video frame decoded is a keyframe (false without video). */
  startsWithKeyframe: boolean;
  video: VideoStream | undefined;
  audio: { codec_name: string; profile: string } | undefined;
}

/** What ffprobe reads of a media file: its duration and its first video and audio streams. */
export function ffprobe(file: string): Sonda {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration,start_time:stream=codec_type,codec_name,width,height,avg_frame_rate,profile,level',
    '-of',
    'json',
    file,
  ]);
  const data = JSON.parse(out.toString()) as {
    format: { duration: string; start_time: string };
    streams: ({ codec_type: string; codec_name: string } & VideoStream)[];
  };
  const first = (type: string) => data.streams.find((s) => s.codec_type === type);
  const video = first('video');
  // The first frame of the first video stream, as JSON: the CSV writer adds a field for side data.
  const frames = video
    ? (JSON.parse(
        execFileSync('ffprobe', [
          '-v',
          'error',
          '-select_streams',
          'v:0',
          '-read_intervals',
          '%+#1',
          '-show_entries',
          'frame=key_frame',
          '-of',
          'json',
          file,
        ]).toString(),
      ) as { frames?: { key_frame?: number }[] })
    : {};
  return {
    duration: Number(data.format.duration),
    start: Number(data.format.start_time),
    startsWithKeyframe: frames.frames?.[0]?.key_frame === 1,
    video,
    audio: first('audio'),
  };
}

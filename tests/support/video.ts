/** Short real videos made with ffmpeg's test sources, for upload, playback and transcoding tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface VideoOptions {
  width?: number;
  height?: number;
  seconds?: number;
  format?: 'mp4' | 'mov' | 'avi' | 'mpeg';
  audio?: boolean;
  /** Frames per second, as ffmpeg reads it ('25', '30000/1001'). */
  rate?: string;
}

/** Writes the video to `out` (its extension should match the format). */
export function videoFile(out: string, options: VideoOptions = {}): string {
  const { width = 320, height = 180, seconds = 2, format = 'mp4', audio = true, rate = '25' } = options;
  const codec =
    format === 'mpeg' ? ['-c:v', 'mpeg2video'] : format === 'avi' ? ['-c:v', 'mpeg4'] : ['-c:v', 'libx264', '-pix_fmt', 'yuv420p'];
  const sound = audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : [];
  const audioCodec = audio ? (format === 'mpeg' ? ['-c:a', 'mp2'] : ['-c:a', 'aac']) : [];
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${width}x${height}:rate=${rate}:duration=${seconds}`,
    ...sound,
    ...codec,
    ...audioCodec,
    '-shortest',
    out,
  ]);
  return out;
}

export function video(options: VideoOptions = {}): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ed-video-'));
  try {
    return readFileSync(videoFile(path.join(dir, `v.${options.format === 'mpeg' ? 'mpg' : (options.format ?? 'mp4')}`), options));
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
  video: VideoStream | undefined;
  audio: { codec_name: string; profile: string } | undefined;
}

/** What ffprobe reads of a media file: its duration and its first video and audio streams. */
export function ffprobe(file: string): Sonda {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height,avg_frame_rate,profile,level',
    '-of',
    'json',
    file,
  ]);
  const data = JSON.parse(out.toString()) as {
    format: { duration: string };
    streams: ({ codec_type: string; codec_name: string } & VideoStream)[];
  };
  const first = (type: string) => data.streams.find((s) => s.codec_type === type);
  return { duration: Number(data.format.duration), video: first('video'), audio: first('audio') };
}

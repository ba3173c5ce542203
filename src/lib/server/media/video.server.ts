/**
 * Video with ffmpeg (the system binary, FFMPEG_PATH): probing an upload, and HLS VOD for slow
 * connections — H.264/AAC, a keyframe every 2 s, 6 s segments, and a ladder capped at the source's
 * height with a low rung first (about 416x234 near 200 kbps) so a teacher on mobile data starts
 * playing at once, then 360p and 720p.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface VideoInfo {
  width: number;
  height: number;
  duration: number;
  fps: number;
  hasAudio: boolean;
}

const ffprobeOf = (ffmpeg: string) => (ffmpeg.endsWith('ffmpeg') ? `${ffmpeg.slice(0, -'ffmpeg'.length)}ffprobe` : 'ffprobe');

/** What ffprobe reads of a file, or null when it holds no decodable video stream. */
export async function probarVideo(file: string, ffmpeg = 'ffmpeg'): Promise<VideoInfo | null> {
  try {
    const { stdout } = await run(
      ffprobeOf(ffmpeg),
      ['-v', 'error', '-show_entries', 'stream=codec_type,width,height,avg_frame_rate:format=duration', '-of', 'json', file],
      { timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
    );
    const data = JSON.parse(stdout) as {
      streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string }[];
      format?: { duration?: string };
    };
    const video = data.streams?.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0);
    const duration = Number(data.format?.duration);
    if (!video?.width || !video.height || !(duration > 0)) return null;
    const [num = 0, den = 1] = (video.avg_frame_rate ?? '25/1').split('/').map(Number);
    const fps = den > 0 && num > 0 ? num / den : 25;
    return {
      width: video.width,
      height: video.height,
      duration,
      fps: Math.min(Math.max(fps, 1), 60),
      hasAudio: data.streams?.some((s) => s.codec_type === 'audio') ?? false,
    };
  } catch {
    return null;
  }
}

export interface Rung {
  name: string;
  height: number;
  videoKbps: number;
  audioKbps: number;
}

const LADDER: Rung[] = [
  { name: '234p', height: 234, videoKbps: 200, audioKbps: 48 },
  { name: '360p', height: 360, videoKbps: 700, audioKbps: 96 },
  { name: '720p', height: 720, videoKbps: 2400, audioKbps: 128 },
];

/** The rungs for a source: the low rung always (never upscaled), the others up to its height. */
function escalera(sourceHeight: number): Rung[] {
  const [low, ...rest] = LADDER;
  if (!low) return [];
  return [{ ...low, height: Math.min(low.height, sourceHeight - (sourceHeight % 2)) }, ...rest.filter((r) => r.height <= sourceHeight)];
}

function ffmpegRun(ffmpeg: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Writes manifest.m3u8 (the master playlist, low rung first), one playlist per rung and its
 * segments into `outDir`, atomically: everything is made in a sibling folder and renamed.
 */
export async function transcodificarHls(input: string, outDir: string, info: VideoInfo, ffmpeg = 'ffmpeg'): Promise<Rung[]> {
  const rungs = escalera(info.height);
  const work = `${outDir}.partial`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const gop = Math.round(info.fps * 2);
  const split = rungs.length > 1 ? `[0:v]split=${rungs.length}${rungs.map((_, i) => `[s${i}]`).join('')};` : '[0:v]null[s0];';
  const scales = rungs.map((r, i) => `[s${i}]scale=-2:${r.height}[v${i}]`).join(';');
  const args = ['-hide_banner', '-nostdin', '-y', '-i', input, '-filter_complex', split + scales];
  rungs.forEach((r, i) => {
    args.push(
      '-map',
      `[v${i}]`,
      `-c:v:${i}`,
      'libx264',
      `-b:v:${i}`,
      `${r.videoKbps}k`,
      `-maxrate:v:${i}`,
      `${Math.round(r.videoKbps * 1.1)}k`,
      `-bufsize:v:${i}`,
      `${r.videoKbps * 2}k`,
    );
    if (info.hasAudio) args.push('-map', '0:a:0', `-c:a:${i}`, 'aac', `-b:a:${i}`, `${r.audioKbps}k`, `-ac:a:${i}`, '2');
  });
  args.push(
    '-preset',
    'veryfast',
    '-profile:v',
    'main',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
    '-sc_threshold',
    '0',
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    '-f',
    'hls',
    '-hls_time',
    '6',
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    path.join(work, '%v_%03d.ts'),
    '-master_pl_name',
    'manifest.m3u8',
    '-var_stream_map',
    rungs.map((r, i) => (info.hasAudio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`)).join(' '),
    path.join(work, '%v.m3u8'),
  );
  // Allow roughly real time on a slow machine, plus a margin.
  await ffmpegRun(ffmpeg, args, Math.max(120_000, info.duration * 6_000));
  await rm(outDir, { recursive: true, force: true });
  await rename(work, outDir);
  return rungs;
}

/** A JPEG poster from about a tenth into the video (not a black first frame), 360 px high at most. */
export async function poster(input: string, outFile: string, info: VideoInfo, ffmpeg = 'ffmpeg'): Promise<void> {
  const at = Math.min(Math.max(info.duration * 0.1, 0), Math.max(info.duration - 0.1, 0));
  const height = Math.min(360, info.height - (info.height % 2));
  await ffmpegRun(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-ss',
      at.toFixed(2),
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      `scale=-2:${height}`,
      '-q:v',
      '4',
      `${outFile}.tmp.jpg`,
    ],
    60_000,
  );
  await rename(`${outFile}.tmp.jpg`, outFile);
}

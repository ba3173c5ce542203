/**
 * Video with ffmpeg (the system binary, FFMPEG_PATH): probing an upload, and HLS VOD for slow
 * connections — H.264/AAC, a keyframe every 2 s, a first segment of 2 s then 6 s segments, and a
 * ladder capped at the source's height with a low rung first (about 416x234 near 200 kbps) so a
 * teacher on mobile data starts playing at once, then 360p and 720p.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { agruparSegmentos, ajustarListas, cuadrosPorSegundo } from './hls.server.ts';
import { ejecutar } from './proceso.server.ts';

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
    const { stdout } = await ejecutar(
      ffprobeOf(ffmpeg),
      ['-v', 'error', '-show_entries', 'stream=codec_type,width,height,avg_frame_rate:format=duration', '-of', 'json', file],
      { timeoutMs: 60_000 },
    );
    const data = JSON.parse(stdout) as {
      streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string }[];
      format?: { duration?: string };
    };
    const video = data.streams?.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0);
    const duration = Number(data.format?.duration);
    if (!video?.width || !video.height || !(duration > 0)) return null;
    const fps = cuadrosPorSegundo(video.avg_frame_rate) || 25;
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

/** Keyframes every 2 s (0011), the first segment one keyframe interval, the others 6 s. */
const CLAVE_S = 2;
const SEGMENTO_S = 6;

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

/** What a job passes to a long ffmpeg run: its cancellation, and who wants to watch the process. */
export interface Ejecucion {
  signal?: AbortSignal | undefined;
  onSpawn?: ((pid: number) => void) | undefined;
}

/** Names of what an attempt writes beside its final files (a folder or a poster in progress). */
const EN_CURSO = /\.(partial|intento-[0-9a-f-]+|viejo-[0-9a-f-]+)(\.jpg)?$|\.tmp\.jpg$/;

const intento = (target: string, extension = '') => `${target}.intento-${randomUUID()}${extension}`;

/**
 * Removes what earlier attempts left in `dir` (a dead worker's half-made ladder or poster), so a
 * new attempt starts clean; returns the names removed.
 */
export async function limpiarIntentos(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((n) => EN_CURSO.test(n));
  await Promise.all(stale.map((n) => rm(path.join(dir, n), { recursive: true, force: true })));
  return stale;
}

/** Puts a finished folder at `target`, replacing what was there with two renames. */
async function ponerEnSuLugar(work: string, target: string): Promise<void> {
  const viejo = `${target}.viejo-${randomUUID()}`;
  try {
    await rename(target, viejo);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rename(work, target);
  await rm(viejo, { recursive: true, force: true });
}

/**
 * Writes manifest.m3u8 (the master playlist, low rung first), one playlist per rung and its
 * segments into `outDir`, atomically: this attempt writes into its own sibling folder, measures
 * the segments into the playlists and only then renames the folder into place.
 */
export async function transcodificarHls(
  input: string,
  outDir: string,
  info: VideoInfo,
  ffmpeg = 'ffmpeg',
  ejecucion: Ejecucion = {},
): Promise<Rung[]> {
  const rungs = escalera(info.height);
  const work = intento(outDir);
  await mkdir(work, { recursive: true });
  const gop = Math.round(info.fps * CLAVE_S);
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
    `expr:gte(t,n_forced*${CLAVE_S})`,
    // ffmpeg cuts a piece at every keyframe; agruparSegmentos joins them into the segments, so the
    // first one (what a player needs before its first frame) is 2 s, not 6.
    '-f',
    'hls',
    '-hls_time',
    String(CLAVE_S),
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    path.join(work, '%v_pieza%03d.ts'),
    '-master_pl_name',
    'manifest.m3u8',
    '-var_stream_map',
    rungs.map((r, i) => (info.hasAudio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`)).join(' '),
    path.join(work, '%v.m3u8'),
  );
  try {
    // Allow roughly real time on a slow machine, plus a margin.
    await ejecutar(ffmpeg, args, { timeoutMs: Math.max(120_000, info.duration * 6_000), ...ejecucion });
    await agruparSegmentos(work, 'manifest.m3u8', SEGMENTO_S);
    await ajustarListas(work, 'manifest.m3u8', ffprobeOf(ffmpeg), ejecucion.signal);
    await ponerEnSuLugar(work, outDir);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
  return rungs;
}

/** A JPEG poster from about a tenth into the video (not a black first frame), 360 px high at most. */
export async function poster(input: string, outFile: string, info: VideoInfo, ffmpeg = 'ffmpeg', ejecucion: Ejecucion = {}): Promise<void> {
  const tmp = intento(outFile, '.jpg');
  const at = Math.min(Math.max(info.duration * 0.1, 0), Math.max(info.duration - 0.1, 0));
  const height = Math.min(360, info.height - (info.height % 2));
  await ejecutar(
    ffmpeg,
    ['-hide_banner', '-nostdin', '-y', '-ss', at.toFixed(2), '-i', input, '-frames:v', '1', '-vf', `scale=-2:${height}`, '-q:v', '4', tmp],
    { timeoutMs: 60_000, ...ejecucion },
  ).catch(async (error: unknown) => {
    await rm(tmp, { force: true });
    throw error;
  });
  await rename(tmp, outFile);
}

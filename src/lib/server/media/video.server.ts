/**
 * Video with ffmpeg and ffprobe (whichever herramientas.server.ts found): probing an upload, and HLS VOD for slow
 * connections — H.264/AAC, a keyframe every 2 s, a first segment of 2 s then 6 s segments, and a
 * ladder capped at the source's height with a low rung first (about 416x234 near 200 kbps) so a
 * teacher on mobile data starts playing at once, then 360p and 720p.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { agruparSegmentos, ajustarListas, cuadrosPorSegundo } from './hls.server.ts';
import { ejecutar } from './proceso.server.ts';
import { limpiarTrabajos } from './trabajo.server.ts';

export interface VideoInfo {
  width: number;
  height: number;
  duration: number;
  fps: number;
  hasAudio: boolean;
}

/** The two commands; by default the system's, on PATH. */
export interface ComandosVideo {
  ffmpeg: string;
  ffprobe: string;
}

const SISTEMA: ComandosVideo = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };

/** What ffprobe reads of a file, or null when it holds no decodable video stream. */
export async function probarVideo(file: string, comandos: ComandosVideo = SISTEMA): Promise<VideoInfo | null> {
  try {
    const { stdout } = await ejecutar(
      comandos.ffprobe,
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

/** The work folders of a capsule's transcode attempts (trabajo.server.ts): 'capsula-12-Ab3xYz'. */
const PREFIJO = 'capsula-';
export const prefijoTrabajo = (idCapsula: number) => `${PREFIJO}${idCapsula}-`;

/** A transcode's folder that has not changed for this long belongs to a dead process. */
const ABANDONADO_MS = 24 * 60 * 60_000;

/**
 * What earlier attempts left in the local temporary folder: every work folder of this capsule (an
 * attempt starts only when the earlier one died or was released, whose ffmpeg the job's signal
 * stopped) and any other capsule's untouched for a day (a worker killed on this machine whose job
 * another machine finished). Each attempt removes its own folder when it ends, however it ends;
 * this sweep is for the ones killed before they could. Returns the names removed.
 */
export function limpiarIntentos(tempDir: string, idCapsula: number, ahora = Date.now()): Promise<string[]> {
  const propio = prefijoTrabajo(idCapsula);
  return limpiarTrabajos(tempDir, PREFIJO, (nombre, cambiadoMs) => (nombre.startsWith(propio) ? true : ahora - cambiadoMs > ABANDONADO_MS));
}

/**
 * Writes manifest.m3u8 (the master playlist, low rung first), one playlist per rung and its
 * segments into `outDir`, a new folder inside the attempt's work folder, and measures the segments
 * into the playlists; on failure or abort nothing is left of it.
 */
export async function transcodificarHls(
  input: string,
  outDir: string,
  info: VideoInfo,
  video: ComandosVideo = SISTEMA,
  ejecucion: Ejecucion = {},
): Promise<Rung[]> {
  const rungs = escalera(info.height);
  await mkdir(outDir, { recursive: true });
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
    path.join(outDir, '%v_pieza%03d.ts'),
    '-master_pl_name',
    'manifest.m3u8',
    '-var_stream_map',
    rungs.map((r, i) => (info.hasAudio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`)).join(' '),
    path.join(outDir, '%v.m3u8'),
  );
  try {
    // Allow roughly real time on a slow machine, plus a margin.
    await ejecutar(video.ffmpeg, args, { timeoutMs: Math.max(120_000, info.duration * 6_000), ...ejecucion });
    await agruparSegmentos(outDir, 'manifest.m3u8', SEGMENTO_S);
    await ajustarListas(outDir, 'manifest.m3u8', video.ffprobe, ejecucion.signal);
  } catch (error) {
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
  return rungs;
}

/**
 * The light version (issue 20, 'Versión liviana'): an MP4 of the ladder's low rung for watching
 * offline, made from the rung's finished segments rather than a second encode. They are H.264 and
 * AAC already (about 200 + 48 kbps at 234p), pieces of one muxer's continuous stream, so ffmpeg's
 * HLS reader plays them back to back with their own timestamps and the MP4 muxer only rewraps them
 * (`-c copy`, ADTS to MP4 audio), with the index first (`+faststart`) so a player can start it
 * before the whole file is read. Takes well under a second for a 10-minute class. Call it before
 * the playlists leave `hlsDir`; on failure or abort nothing is left of `outFile`.
 */
export async function versionLiviana(
  hlsDir: string,
  rung: Rung,
  outFile: string,
  video: ComandosVideo = SISTEMA,
  ejecucion: Ejecucion = {},
): Promise<void> {
  const args = ['-hide_banner', '-nostdin', '-y', '-i', path.join(hlsDir, `${rung.name}.m3u8`), '-map', '0:v:0', '-map', '0:a:0?'];
  args.push('-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-movflags', '+faststart', '-f', 'mp4', outFile);
  await ejecutar(video.ffmpeg, args, { timeoutMs: 120_000, ...ejecucion }).catch(async (error: unknown) => {
    await rm(outFile, { force: true });
    throw error;
  });
}

/** A JPEG poster from about a tenth into the video (not a black first frame), 360 px high at most. */
export async function poster(
  input: string,
  outFile: string,
  info: VideoInfo,
  video: ComandosVideo = SISTEMA,
  ejecucion: Ejecucion = {},
): Promise<void> {
  const at = Math.min(Math.max(info.duration * 0.1, 0), Math.max(info.duration - 0.1, 0));
  const height = Math.min(360, info.height - (info.height % 2));
  await ejecutar(
    video.ffmpeg,
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
      outFile,
    ],
    { timeoutMs: 60_000, ...ejecucion },
  ).catch(async (error: unknown) => {
    await rm(outFile, { force: true });
    throw error;
  });
}

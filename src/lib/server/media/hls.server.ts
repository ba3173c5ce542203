/**
 * Playlists written from the encoded segments (RFC 8216): ffmpeg's muxer writes each segment's
 * nominal duration (6.000) and each variant's configured bitrate, while the segments it cut last
 * a little longer (audio frames straddle the cut) and peak above the target. After encoding, every
 * segment is measured (its size, ffprobe's duration) and the playlists say what is really there:
 * EXTINF the measured duration, the target duration its ceiling, BANDWIDTH the peak segment bit
 * rate, AVERAGE-BANDWIDTH the whole variant's, RESOLUTION and FRAME-RATE of the encoded video.
 */
import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ejecutar } from './proceso.server.ts';

interface Segmento {
  uri: string;
  bytes: number;
  /** ffprobe's duration, as it printed it (seconds, microsecond precision). */
  duracion: string;
}

interface Variante {
  uri: string;
  segmentos: Segmento[];
  width: number;
  height: number;
  fps: number;
}

interface Sonda {
  streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string }[];
  format?: { duration?: string };
}

const PARALELO = 4;

async function sondear(file: string, ffprobe: string, signal: AbortSignal | undefined): Promise<Sonda> {
  const { stdout } = await ejecutar(
    ffprobe,
    ['-v', 'error', '-show_entries', 'stream=codec_type,width,height,avg_frame_rate:format=duration', '-of', 'json', file],
    { timeoutMs: 60_000, signal },
  );
  return JSON.parse(stdout) as Sonda;
}

/** `num/den` as frames per second, or 0. */
export function cuadrosPorSegundo(rate: string | undefined): number {
  const [num = 0, den = 0] = (rate ?? '').split('/').map(Number);
  return num > 0 && den > 0 ? num / den : 0;
}

const segmentosDe = (playlist: string) =>
  playlist
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

async function medirVariante(dir: string, uri: string, ffprobe: string, signal: AbortSignal | undefined): Promise<Variante> {
  const uris = segmentosDe(await readFile(path.join(dir, uri), 'utf8'));
  const segmentos: Segmento[] = new Array(uris.length);
  let video: { width?: number; height?: number; avg_frame_rate?: string } | undefined;
  for (let start = 0; start < uris.length; start += PARALELO) {
    await Promise.all(
      uris.slice(start, start + PARALELO).map(async (segUri, k) => {
        const file = path.join(dir, segUri);
        const [sonda, info] = await Promise.all([sondear(file, ffprobe, signal), stat(file)]);
        const duracion = sonda.format?.duration;
        if (!duracion || !(Number(duracion) > 0)) throw new Error(`ffprobe found no duration in ${segUri}`);
        segmentos[start + k] = { uri: segUri, bytes: info.size, duracion };
        if (start + k === 0) video = sonda.streams?.find((s) => s.codec_type === 'video');
      }),
    );
  }
  if (!video?.width || !video.height || segmentos.length === 0) throw new Error(`no video in the first segment of ${uri}`);
  return { uri, segmentos, width: video.width, height: video.height, fps: cuadrosPorSegundo(video.avg_frame_rate) };
}

/** The variant playlist with the measured durations and their ceiling as the target duration. */
export function reescribirVariante(playlist: string, segmentos: Segmento[]): string {
  const porUri = new Map(segmentos.map((s) => [s.uri, s.duracion]));
  const target = Math.ceil(Math.max(...segmentos.map((s) => Number(s.duracion))));
  const lines = playlist.split('\n');
  return lines
    .map((line, i) => {
      if (line.startsWith('#EXT-X-TARGETDURATION:')) return `#EXT-X-TARGETDURATION:${target}`;
      if (!line.startsWith('#EXTINF:')) return line;
      const uri = lines.slice(i + 1).find((l) => l.trim() !== '' && !l.startsWith('#'));
      const duracion = uri ? porUri.get(uri.trim()) : undefined;
      if (!duracion) throw new Error(`segment after line ${i + 1} was not measured`);
      return `#EXTINF:${duracion},`;
    })
    .join('\n');
}

/** Peak segment bit rate and average bit rate of a variant, in bits per second. */
export function tasas(segmentos: { bytes: number; duracion: string | number }[]): { peak: number; average: number } {
  let bits = 0;
  let seconds = 0;
  let peak = 0;
  for (const s of segmentos) {
    const d = Number(s.duracion);
    bits += s.bytes * 8;
    seconds += d;
    peak = Math.max(peak, (s.bytes * 8) / d);
  }
  return { peak: Math.ceil(peak), average: Math.round(bits / seconds) };
}

/** `KEY=value,KEY="quoted, value"` as ordered pairs. */
function atributos(list: string): [string, string][] {
  return [...list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

/** The master playlist: ffmpeg's variants in its order (low rung first), with measured attributes. */
export function reescribirMaestra(master: string, variantes: Variante[]): string {
  const porUri = new Map(variantes.map((v) => [v.uri, v]));
  const lines = master.split('\n').map((l) => l.trim());
  const out = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS'];
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'));
    const v = uri ? porUri.get(uri) : undefined;
    if (!uri || !v) throw new Error(`variant after line ${i + 1} was not measured`);
    const { peak, average } = tasas(v.segmentos);
    const medidos: [string, string][] = [
      ['BANDWIDTH', String(peak)],
      ['AVERAGE-BANDWIDTH', String(average)],
      ['RESOLUTION', `${v.width}x${v.height}`],
      ...(v.fps > 0 ? [['FRAME-RATE', v.fps.toFixed(3)] as [string, string]] : []),
    ];
    const nombres = new Set(medidos.map(([k]) => k));
    const resto = atributos(line.slice('#EXT-X-STREAM-INF:'.length)).filter(([k]) => !nombres.has(k));
    out.push(`#EXT-X-STREAM-INF:${[...medidos, ...resto].map(([k, val]) => `${k}=${val}`).join(',')}`, uri);
  });
  return `${out.join('\n')}\n`;
}

/** `dir`'s variant playlists, in the master playlist's order. */
async function variantesDe(dir: string, master: string): Promise<string[]> {
  return segmentosDe(await readFile(path.join(dir, master), 'utf8'));
}

/**
 * The segments of the ladder from ffmpeg's short pieces (one per keyframe interval): the first
 * piece alone, then consecutive pieces joined until they last `segundos` (within half a second),
 * each written as one file (`<variant>_000.ts`, `_001.ts`...), and each variant playlist listing
 * them. Every rendition has its keyframes at the same times, so its pieces, and the segments, line
 * up across the ladder and a player can switch rungs at any segment. ffmpeg 5.1's `-hls_init_time` shortens every segment of a VOD
 * playlist, not only the first, so ffmpeg cuts at every (forced, aligned) keyframe and the pieces
 * are joined here. One muxer wrote a rendition's pieces in sequence (continuity counters and
 * timestamps carry on, each piece starts with PAT/PMT and a keyframe), so a byte concatenation is
 * the segment ffmpeg would have cut. Piece names must not collide with the segment names.
 */
export async function agruparSegmentos(dir: string, master: string, segundos: number): Promise<void> {
  for (const uri of await variantesDe(dir, master)) {
    const file = path.join(dir, uri);
    const lines = (await readFile(file, 'utf8')).split('\n').map((l) => l.trim());
    const inicio = lines.findIndex((l) => l.startsWith('#EXTINF:'));
    if (inicio < 0) throw new Error(`no segments in ${uri}`);
    const header = lines.slice(0, inicio).filter((l) => l !== '');
    const piezas: { uri: string; duracion: number }[] = [];
    let duracion = 0;
    for (const line of lines.slice(inicio)) {
      if (line.startsWith('#EXTINF:')) duracion = Number.parseFloat(line.slice('#EXTINF:'.length));
      else if (line !== '' && !line.startsWith('#')) piezas.push({ uri: line, duracion });
      else if (line !== '' && line !== '#EXT-X-ENDLIST') throw new Error(`unexpected ${line} in ${uri}`);
    }
    const grupos: (typeof piezas)[] = [];
    let abierto: typeof piezas = [];
    for (const pieza of piezas) {
      abierto.push(pieza);
      const largo = abierto.reduce((sum, p) => sum + p.duracion, 0);
      if (grupos.length === 0 || largo >= segundos - 0.5) {
        grupos.push(abierto);
        abierto = [];
      }
    }
    if (abierto.length > 0) grupos.push(abierto);
    const base = uri.replace(/\.m3u8$/, '');
    const entradas: string[] = [];
    for (const [n, grupo] of grupos.entries()) {
      const nombre = `${base}_${String(n).padStart(3, '0')}.ts`;
      const salida = await open(path.join(dir, nombre), 'wx');
      try {
        for (const pieza of grupo) await salida.writeFile(await readFile(path.join(dir, pieza.uri)));
      } finally {
        await salida.close();
      }
      await Promise.all(grupo.map((pieza) => rm(path.join(dir, pieza.uri))));
      // ffmpeg's nominal duration for now: ajustarListas writes the measured one.
      entradas.push(`#EXTINF:${grupo.reduce((sum, pieza) => sum + pieza.duracion, 0).toFixed(6)},`, nombre);
    }
    await writeFile(file, `${[...header, ...entradas, '#EXT-X-ENDLIST'].join('\n')}\n`);
  }
}

/** Measures every variant of `dir`'s master playlist and rewrites all the playlists in place. */
export async function ajustarListas(dir: string, master: string, ffprobe: string, signal?: AbortSignal): Promise<void> {
  const masterFile = path.join(dir, master);
  const text = await readFile(masterFile, 'utf8');
  const uris = segmentosDe(text);
  const variantes: Variante[] = [];
  for (const uri of uris) variantes.push(await medirVariante(dir, uri, ffprobe, signal));
  for (const v of variantes) {
    const file = path.join(dir, v.uri);
    await writeFile(file, reescribirVariante(await readFile(file, 'utf8'), v.segmentos));
  }
  await writeFile(masterFile, reescribirMaestra(text, variantes));
}

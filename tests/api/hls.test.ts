/**
 * HLS that validators accept (RFC 8216): the playlists ffmpeg's output ends up with are
 * read by a third-party parser (m3u8-parser) and checked against what ffprobe and the file sizes
 * say of every segment.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Manifest, Parser } from 'm3u8-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limpiarIntentos, probarVideo, transcodificarHls, type VideoInfo } from '../../src/lib/server/media/video.server.ts';
import { corriendo } from '../support/procesos.ts';
import { ffprobe, type VideoOptions, videoFile } from '../support/video.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ed-hls-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function parse(file: string): Manifest {
  const parser = new Parser();
  parser.push(readFileSync(file, 'utf8'));
  parser.end();
  return parser.manifest;
}

async function transcode(options: VideoOptions): Promise<{ hls: string; info: VideoInfo }> {
  const input = await videoFile(path.join(dir, 'original.mp4'), options);
  const info = await probarVideo(input);
  if (!info) throw new Error('test video not readable');
  const hls = path.join(dir, 'hls');
  await transcodificarHls(input, hls, info);
  return { hls, info };
}

const fraction = (rate: string) => {
  const [num = 0, den = 1] = rate.split('/').map(Number);
  return num / den;
};

/** Every variant of the master playlist checked against its measured segments. */
function checkLadder(hls: string) {
  const master = parse(path.join(hls, 'manifest.m3u8'));
  const variants = master.playlists ?? [];
  expect(variants.length).toBeGreaterThan(0);
  return variants.map((variant) => {
    const attributes = variant.attributes;
    const playlist = parse(path.join(hls, variant.uri));
    const measured = playlist.segments.map((segment) => {
      const file = path.join(hls, segment.uri);
      return { extinf: segment.duration, bytes: statSync(file).size, probe: ffprobe(file) };
    });
    expect(measured.length).toBeGreaterThan(1);
    for (const m of measured) {
      expect(Math.abs(m.extinf - m.probe.duration)).toBeLessThan(0.001);
      expect(playlist.targetDuration).toBeGreaterThanOrEqual(Math.round(m.extinf));
    }
    expect(playlist.targetDuration).toBe(Math.ceil(Math.max(...measured.map((m) => m.extinf))));
    const peak = Math.max(...measured.map((m) => (m.bytes * 8) / m.probe.duration));
    const bits = measured.reduce((sum, m) => sum + m.bytes * 8, 0);
    const seconds = measured.reduce((sum, m) => sum + m.probe.duration, 0);
    expect(attributes.BANDWIDTH).toBeGreaterThanOrEqual(peak);
    expect(Number(attributes['AVERAGE-BANDWIDTH'])).toBeCloseTo(bits / seconds, -1);
    expect(Number(attributes['AVERAGE-BANDWIDTH'])).toBeLessThanOrEqual(attributes.BANDWIDTH ?? 0);
    // The first segment is one keyframe interval (2 s, what a player waits for before its first
    // frame), the others 6 s but the last (audio straddling the cuts adds a few tens of ms); each
    // one starts with a keyframe.
    expect(playlist.segments[0]?.uri).toBe(variant.uri.replace('.m3u8', '_000.ts'));
    measured.forEach((m, i) => {
      expect(m.probe.startsWithKeyframe).toBe(true);
      const nominal = i === 0 ? 2 : 6;
      expect(m.extinf).toBeLessThan(nominal + 0.1);
      if (i < measured.length - 1) expect(m.extinf).toBeGreaterThan(nominal - 0.1);
    });
    const first = measured[0]?.probe;
    expect(attributes.RESOLUTION).toEqual({ width: first?.video?.width, height: first?.video?.height });
    expect(attributes['FRAME-RATE']).toBeCloseTo(fraction(first?.video?.avg_frame_rate ?? '0'), 3);
    // avc1.PPCCLL: profile_idc and level_idc in hex (Main is 77); mp4a.40.2 is AAC-LC.
    const [avc, ...rest] = (attributes.CODECS ?? '').split(',');
    expect(first?.video?.profile).toBe('Main');
    expect(avc?.slice(0, 7)).toBe('avc1.4d');
    expect(Number.parseInt(avc?.slice(9, 11) ?? '', 16)).toBe(first?.video?.level);
    expect(rest).toEqual(first?.audio ? ['mp4a.40.2'] : []);
    return { ...attributes, height: first?.video?.height ?? 0, starts: measured.map((m) => m.probe.start) };
  });
}

/** Every rung's segments start at the same times, so a player can switch rungs at any segment. */
function checkAligned(variants: { starts: number[] }[]) {
  const [low, ...rest] = variants;
  for (const variant of rest) {
    expect(variant.starts.length).toBe(low?.starts.length);
    variant.starts.forEach((start, i) => {
      expect(start).toBeCloseTo(low?.starts[i] ?? Number.NaN, 2);
    });
  }
}

describe('HLS ladder', () => {
  it('a 640x360 video with sound: the low rung first, each playlist says what its segments hold', async () => {
    const { hls } = await transcode({ width: 640, height: 360, seconds: 13 });
    const variants = checkLadder(hls);
    expect(variants.map((v) => v.height)).toEqual([234, 360]);
    expect(variants[0]?.starts).toHaveLength(3);
    checkAligned(variants);
    expect(readdirSync(dir).sort()).toEqual(['hls', 'original.mp4']);
  });

  it('a 29.97 fps video without sound: the frame rate and codecs of the encoded stream', async () => {
    const { hls } = await transcode({ width: 320, height: 240, seconds: 8, audio: false, rate: '30000/1001' });
    const [low, ...others] = checkLadder(hls);
    expect(others).toEqual([]);
    expect(low?.['FRAME-RATE']).toBeCloseTo(29.97, 2);
    expect(low?.CODECS).not.toContain('mp4a');
  });

  it("a new attempt removes its capsule's earlier work folders and other capsules' abandoned ones, nothing else", async () => {
    const tmp = path.join(dir, '.tmp');
    const carpeta = (nombre: string, horas = 0) => {
      mkdirSync(path.join(tmp, nombre, 'rendicion', 'hls'), { recursive: true });
      writeFileSync(path.join(tmp, nombre, 'rendicion', 'hls', '234p_000.ts'), 'half');
      const hace = new Date(Date.now() - horas * 3600_000);
      for (const d of [path.join(tmp, nombre), path.join(tmp, nombre, 'rendicion')]) utimesSync(d, hace, hace);
    };
    carpeta('capsula-3-Ab12Cd'); // a dead attempt of this capsule, however recent
    carpeta('capsula-31-Xy34Zw'); // another capsule's transcode at work now
    carpeta('capsula-5-Qr56St', 30); // another capsule's, untouched for more than a day
    writeFileSync(path.join(tmp, 'a3f1c2d0-upload'), 'an upload arriving');

    const removed = await limpiarIntentos(tmp, 3);
    expect(removed.sort()).toEqual(['capsula-3-Ab12Cd', 'capsula-5-Qr56St']);
    expect(readdirSync(tmp).sort()).toEqual(['a3f1c2d0-upload', 'capsula-31-Xy34Zw']);
    expect(await limpiarIntentos(path.join(dir, 'no-existe'), 3)).toEqual([]);
  });

  it('writes the ladder into a new folder, leaving what is beside it alone', async () => {
    writeFileSync(path.join(dir, 'poster.jpg'), 'a poster');
    const { hls } = await transcode({ width: 160, height: 120, seconds: 3 });
    expect(readdirSync(dir).sort()).toEqual(['hls', 'original.mp4', 'poster.jpg']);
    expect(readdirSync(hls)).toContain('manifest.m3u8');
  });

  it('an aborted transcode stops ffmpeg and leaves nothing behind', async () => {
    const input = await videoFile(path.join(dir, 'original.mp4'), { width: 320, height: 240, seconds: 10 });
    const info = await probarVideo(input);
    if (!info) throw new Error('test video not readable');
    const controller = new AbortController();
    let pid = 0;
    const run = transcodificarHls(input, path.join(dir, 'hls'), info, undefined, {
      signal: controller.signal,
      onSpawn: (p) => {
        pid = p;
        controller.abort(new Error('released'));
      },
    });
    await expect(run).rejects.toThrow('released');
    expect(pid).toBeGreaterThan(0);
    expect(corriendo(pid)).toBe(false);
    expect(readdirSync(dir)).toEqual(['original.mp4']);
  });
});

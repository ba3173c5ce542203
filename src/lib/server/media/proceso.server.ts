/**
 * External tools (ffmpeg, ffprobe, poppler) as child processes that never outlive this process:
 * a worker killed with `kill -9` must not leave an ffmpeg writing into a capsule's folder while
 * another worker transcodes the same video (docs/decisions/0025).
 *
 * On Linux the tool is started through util-linux's `setpriv --pdeathsig SIGKILL`, so the kernel
 * kills it the moment this process dies, however it dies. Where setpriv is absent a small POSIX sh
 * watchdog does it: it reads the pipe this process holds open on its stdin and kills the tool when
 * the pipe reaches end of file, which happens when this process dies. On a normal exit every
 * running tool is killed as well.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export type Guardian = 'setpriv' | 'vigilante';

export interface EjecutarOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called with the tool's process id once it runs (the same under either guardian). */
  onSpawn?: ((pid: number) => void) | undefined;
  /** Which guardian to use; by default setpriv where it exists. */
  guardian?: Guardian | undefined;
}

export interface Salida {
  stdout: string;
  stderr: string;
}

const MAX_STDOUT = 4 * 1024 * 1024;
const MAX_STDERR = 4000;

/**
 * The watchdog: a background subshell keeps a copy of stdin (a pipe from this process) and kills
 * its whole process group when the pipe ends, then the shell becomes the tool (same pid). A
 * background list reads /dev/null unless told otherwise, hence the explicit descriptor 3.
 */
const VIGILANTE = ['exec 3<&0', '( read -r _ <&3; kill -KILL 0 ) >/dev/null 2>&1 &', 'exec 3<&-', 'exec "$@" </dev/null'].join('\n');

let setpriv: string | null | undefined;

function buscarSetpriv(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== 'linux') return setpriv;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const candidate = path.join(dir, 'setpriv');
    try {
      accessSync(candidate, constants.X_OK);
      setpriv = candidate;
      break;
    } catch {
      /* not in this directory */
    }
  }
  return setpriv;
}

/** The guardian used when none is asked for. */
export const guardianPorDefecto = (): Guardian => (buscarSetpriv() ? 'setpriv' : 'vigilante');

const vivos = new Set<() => void>();
let alSalir = false;

function recordar(matar: () => void): () => void {
  if (!alSalir) {
    alSalir = true;
    process.once('exit', () => {
      for (const m of vivos) m();
    });
  }
  vivos.add(matar);
  return () => vivos.delete(matar);
}

/**
 * Runs `command` to completion and resolves with its output, or rejects with its last stderr
 * lines when it fails, passes `timeoutMs` (then it is killed) or `signal` aborts.
 */
export function ejecutar(command: string, args: string[], options: EjecutarOptions): Promise<Salida> {
  const guardian = options.guardian ?? guardianPorDefecto();
  const name = path.basename(command);
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason ?? new Error(`${name} aborted`));
      return;
    }
    const setprivPath = guardian === 'setpriv' ? buscarSetpriv() : null;
    const vigilado = !setprivPath;
    const child = setprivPath
      ? spawn(setprivPath, ['--pdeathsig', 'SIGKILL', '--', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', VIGILANTE, 'vigilante', command, ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const matar = () => {
      try {
        // The watchdog leads its own process group: the tool and the watchdog die together.
        if (vigilado && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const olvidar = recordar(matar);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_STDOUT) stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-MAX_STDERR);
    });
    let motivo: unknown;
    const detener = (reason: unknown) => {
      motivo ??= reason;
      matar();
    };
    const timer = setTimeout(() => detener(new Error(`${name} took longer than ${options.timeoutMs} ms`)), options.timeoutMs);
    const abortar = () => detener(options.signal?.reason ?? new Error(`${name} aborted`));
    options.signal?.addEventListener('abort', abortar, { once: true });
    if (child.pid) options.onSpawn?.(child.pid);
    const terminar = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abortar);
      olvidar();
      // Ends the watchdog, whose tool is done.
      child.stdin?.destroy();
    };
    child.on('error', (error) => {
      terminar();
      reject(error);
    });
    child.on('close', (code, signal) => {
      terminar();
      if (motivo) reject(motivo);
      else if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${name} exited with ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

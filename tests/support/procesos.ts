/** Processes as Linux's /proc shows them, to prove a child did not outlive its parent. */
import { readdirSync, readFileSync } from 'node:fs';

interface Proceso {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
}

function leer(pid: number): Proceso | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state = '', ppid = '0'] = stat.slice(close + 2).split(' ');
    return { pid, comm: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** True while the process runs: gone, or a zombie nobody reaped yet, is not running. */
export function corriendo(pid: number): boolean {
  const p = leer(pid);
  return p !== null && p.state !== 'Z' && p.state !== 'X';
}

/** The running children of `ppid` named `comm`. */
export function hijos(ppid: number, comm: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => leer(Number(name)))
    .filter((p): p is Proceso => p !== null && p.ppid === ppid && p.comm === comm && corriendo(p.pid))
    .map((p) => p.pid);
}

/** Waits until `check` holds, polling every 20 ms, or fails after `timeoutMs`. */
export async function esperar(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A fresh machine without ffmpeg (issue 28, docs/decisions/0049): `npm ci && npm start` must still
 * take a video. No registry package ships an ffmpeg fit to read hostile uploads, so the process
 * that finds none installs Debian's with apt-get when it runs as root (as `npm test` does), in the
 * background while it already serves; elsewhere it says, once, in the start-up box and the log,
 * exactly what to install. Until then a video upload answers 503 (herramientas.server.ts) and
 * /healthz/detalle names the tool. `INSTALAR_HERRAMIENTAS=false` turns the install off.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { enPath, type Herramientas } from './herramientas.server.ts';

const run = promisify(execFile);

export interface PlanInstalacion {
  /** Debian's packages that bring what is missing. */
  paquetes: string[];
  /** The command a person runs, for the box and the log. */
  comando: string;
  /** Whether this process installs them itself (root, apt-get present, allowed). */
  automatica: boolean;
}

export interface EntornoInstalacion {
  /** The process's user id (0: root). */
  uid: number | undefined;
  /** The PATH searched for apt-get and for the tools. */
  PATH?: string | undefined;
  permitida: boolean;
}

/** What to install for the tools found missing, or null when nothing is (a configured path is the operator's). */
export function planInstalacion(h: Herramientas, entorno: EntornoInstalacion): PlanInstalacion | null {
  const falta = (['ffmpeg', 'ffprobe'] as const).some((n) => h[n].origen === 'sistema' && !enPath(h[n].ruta, entorno.PATH));
  if (!falta) return null;
  const paquetes = ['ffmpeg'];
  const aptGet = enPath('apt-get', entorno.PATH);
  return {
    paquetes,
    comando: `${entorno.uid === 0 ? '' : 'sudo '}apt-get install -y ${paquetes.join(' ')}`,
    automatica: entorno.permitida && entorno.uid === 0 && aptGet !== null,
  };
}

/** The start-up box's lines about the plan. */
export function avisoInstalacion(plan: PlanInstalacion): string[] {
  return plan.automatica
    ? [
        `Falta ffmpeg para procesar videos: se está instalando (${plan.comando}).`,
        'Mientras tanto, los videos subidos reciben un aviso para intentar más tarde.',
      ]
    : [
        `Falta ffmpeg para procesar videos. Instálalo con: ${plan.comando}`,
        '(o define FFMPEG_PATH y FFPROBE_PATH). Hasta entonces no se aceptan videos.',
      ];
}

export interface Registro {
  info(msg: string, data?: object): void;
  error(msg: string, data?: object): void;
}

/**
 * Runs the plan's apt-get (update, then install); true when it ended well. Never throws. Unlike the
 * media tools (proceso.server.ts), apt-get is not killed with this process: a package manager cut
 * mid-way leaves dpkg half configured. A second process finds apt's lock taken and says so.
 */
export async function instalar(plan: PlanInstalacion, log: Registro, PATH = process.env.PATH): Promise<boolean> {
  const aptGet = enPath('apt-get', PATH) ?? 'apt-get';
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  log.info('installing media tools with apt-get', { paquetes: plan.paquetes });
  const started = Date.now();
  try {
    await run(aptGet, ['update', '-qq'], { timeout: 10 * 60_000, env });
    await run(aptGet, ['install', '-y', '-qq', '--no-install-recommends', ...plan.paquetes], { timeout: 20 * 60_000, env });
    log.info('media tools installed', { paquetes: plan.paquetes, seconds: Math.round((Date.now() - started) / 1000) });
    return true;
  } catch (error) {
    log.error('media tools could not be installed; install them by hand', { comando: plan.comando, error });
    return false;
  }
}

/**
 * At start-up (web server and worker): when ffmpeg is missing, logs what to install once and, when
 * allowed, installs it in the background. Answers the start-up box's lines (none when nothing is
 * missing).
 */
export function prepararHerramientas(
  h: Herramientas,
  o: { permitida: boolean; log: Registro & { warn(msg: string, data?: object): void } },
): string[] {
  const plan = planInstalacion(h, { uid: process.getuid?.(), permitida: o.permitida });
  if (!plan) return [];
  o.log.warn('ffmpeg not found: video uploads answer 503 until it is installed', { comando: plan.comando, automatica: plan.automatica });
  if (plan.automatica) void instalar(plan, o.log);
  return avisoInstalacion(plan);
}

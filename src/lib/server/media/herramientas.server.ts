/**
 * The media tools the server runs on uploads (issue 28, docs/decisions/0049): ffmpeg and ffprobe
 * for capsules, a PDF reader for manuals and library PDFs. Each is found once per process:
 *
 * - a path the operator set (`FFMPEG_PATH`, `FFPROBE_PATH`, `PDFTOPPM_PATH`) is used as it is,
 *   even when it does not work: then it is reported, not replaced;
 * - otherwise the system's, on PATH (Debian's packages, which get security updates);
 * - otherwise, for PDFs, PDF.js, which `npm ci` installs (`pdfjs.server.ts`, run as a child
 *   process like poppler). No registry package ships an ffmpeg fit to read hostile uploads, so a
 *   machine without one gets Debian's at start-up when it can (instalar.server.ts).
 *
 * Whether a tool runs is asked with its version flag, at start-up and whenever a file the tool
 * refused might be the tool's fault, so a missing or broken tool answers 503 ("the server cannot
 * process it now") instead of blaming the teacher's file.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { ejecutar } from './proceso.server.ts';

export type Origen = 'configurado' | 'sistema' | 'incluido';

export interface Herramienta {
  /** The command run (an absolute path, or a name looked up on PATH by the system). */
  ruta: string;
  origen: Origen;
}

/** PDFs: poppler's two commands, or PDF.js run by this same Node as a child process. */
export type HerramientaPdf = (Herramienta & { tipo: 'poppler'; pdfinfo: string }) | (Herramienta & { tipo: 'pdfjs'; script: string });

export interface Herramientas {
  ffmpeg: Herramienta;
  ffprobe: Herramienta;
  pdf: HerramientaPdf;
}

/** What GET /healthz/detalle and the admin console show of one tool. */
export interface EstadoHerramienta {
  nombre: 'ffmpeg' | 'ffprobe' | 'pdf';
  disponible: boolean;
  ruta: string;
  origen: Origen;
  /** The first line of the tool's version output, when it runs. */
  version: string | null;
  /** Why it does not run (the system's error, in English), when it does not. */
  error: string | null;
}

export type TipoArchivo = 'video' | 'pdf';

/** The upload's answer while the tool that reads that kind of file does not run (503). */
export const HERRAMIENTA_NO_DISPONIBLE: Record<TipoArchivo, string> = {
  video: 'El servidor no puede procesar videos en este momento. Tu archivo no tiene problemas: intenta de nuevo más tarde.',
  pdf: 'El servidor no puede procesar archivos PDF en este momento. Tu archivo no tiene problemas: intenta de nuevo más tarde.',
};

/** A tool the server needs does not run: the server's fault, never the file's (the API answers 503). */
export class HerramientaNoDisponible extends Error {
  readonly tipo: TipoArchivo;
  constructor(tipo: TipoArchivo) {
    super(HERRAMIENTA_NO_DISPONIBLE[tipo]);
    this.name = 'HerramientaNoDisponible';
    this.tipo = tipo;
  }
}

/** The first executable `name` on `PATH`, or null. */
export function enPath(name: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return null;
}

export const SCRIPT_PDFJS = path.join(import.meta.dirname, 'pdfjs.server.ts');

export interface OpcionesHerramientas {
  FFMPEG_PATH?: string | undefined;
  FFPROBE_PATH?: string | undefined;
  PDFTOPPM_PATH?: string | undefined;
  /** The PATH searched for the system's tools (the process's by default). */
  PATH?: string | undefined;
}

function elegir(configurado: string | undefined, nombre: 'ffmpeg' | 'ffprobe'): Herramienta {
  // The system's stays a bare name, looked up on PATH each time it runs: one installed after
  // start-up (instalar.server.ts) works at once.
  return configurado ? { ruta: configurado, origen: 'configurado' } : { ruta: nombre, origen: 'sistema' };
}

/** Finds the tools (see the module's comment); nothing is run. */
export function resolverHerramientas(o: OpcionesHerramientas = {}): Herramientas {
  // An FFMPEG_PATH alone (as before FFPROBE_PATH existed) names its ffprobe beside it.
  const ffprobeJunto =
    o.FFMPEG_PATH && !o.FFPROBE_PATH && path.basename(o.FFMPEG_PATH) === 'ffmpeg'
      ? path.join(path.dirname(o.FFMPEG_PATH), 'ffprobe')
      : undefined;
  const ffmpeg = elegir(o.FFMPEG_PATH, 'ffmpeg');
  const ffprobe = elegir(o.FFPROBE_PATH ?? ffprobeJunto, 'ffprobe');
  let pdf: HerramientaPdf;
  if (o.PDFTOPPM_PATH) {
    pdf = { tipo: 'poppler', ruta: o.PDFTOPPM_PATH, pdfinfo: path.join(path.dirname(o.PDFTOPPM_PATH), 'pdfinfo'), origen: 'configurado' };
  } else {
    if (enPath('pdftoppm', o.PATH) && enPath('pdfinfo', o.PATH))
      pdf = { tipo: 'poppler', ruta: 'pdftoppm', pdfinfo: 'pdfinfo', origen: 'sistema' };
    else pdf = { tipo: 'pdfjs', ruta: process.execPath, script: SCRIPT_PDFJS, origen: 'incluido' };
  }
  return { ffmpeg, ffprobe, pdf };
}

/** The version command of each tool. */
function comandoVersion(nombre: EstadoHerramienta['nombre'], h: Herramientas): [string, string[]] {
  if (nombre !== 'pdf') return [h[nombre].ruta, ['-version']];
  return h.pdf.tipo === 'poppler' ? [h.pdf.pdfinfo, ['-v']] : [h.pdf.ruta, [h.pdf.script, 'version']];
}

/** The version line without its copyright notice ('ffmpeg version 5.1.9-0+deb12u1'). */
const primeraLinea = (s: string) => s.trim().split('\n')[0]?.split(' Copyright')[0]?.trim().slice(0, 200) || null;

/** Whether `comando` names a file this process may run (a bare name: on PATH). */
function ejecutable(comando: string): boolean {
  if (!path.isAbsolute(comando)) return enPath(comando) !== null;
  try {
    accessSync(comando, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function probar(nombre: EstadoHerramienta['nombre'], h: Herramientas): Promise<EstadoHerramienta> {
  const { origen } = h[nombre];
  // Where a bare name is found now, for the person reading the state.
  const ruta = path.isAbsolute(h[nombre].ruta) ? h[nombre].ruta : (enPath(h[nombre].ruta) ?? h[nombre].ruta);
  const [comando, args] = comandoVersion(nombre, h);
  const falta = (motivo: string): EstadoHerramienta => ({ nombre, disponible: false, ruta, origen, version: null, error: motivo });
  if (!ejecutable(comando)) return falta(path.isAbsolute(comando) ? `${comando} not found` : `${comando} not found on PATH`);
  try {
    const { stdout, stderr } = await ejecutar(comando, args, { timeoutMs: 15_000 });
    // pdfinfo -v prints its version on stderr.
    const version = primeraLinea(stdout) ?? primeraLinea(stderr);
    if (!version) throw new Error(`${path.basename(comando)} printed no version`);
    return { nombre, disponible: true, ruta, origen, version, error: null };
  } catch (error) {
    return falta((error instanceof Error ? error.message : String(error)).slice(0, 300));
  }
}

/** Which tools read each kind of file. */
const NECESARIAS: Record<TipoArchivo, EstadoHerramienta['nombre'][]> = { video: ['ffprobe', 'ffmpeg'], pdf: ['pdf'] };

/** A working tool's answer is trusted this long; a failing one is asked again at once. */
const VIGENCIA_MS = 60_000;

export interface Verificador {
  herramientas: Herramientas;
  /** Every tool's state (asked again when older than a minute). */
  estado(): Promise<EstadoHerramienta[]>;
  /**
   * Whether the tools for `tipo` run now: asked afresh by default (after a tool refused a file);
   * with `fresco: false` a tool that ran within the last minute is trusted (before an upload starts).
   */
  disponible(tipo: TipoArchivo, opciones?: { fresco?: boolean }): Promise<boolean>;
  /** Throws HerramientaNoDisponible unless the tools for `tipo` run now (the same `fresco`). */
  exigir(tipo: TipoArchivo, opciones?: { fresco?: boolean }): Promise<void>;
}

export function crearVerificador(herramientas: Herramientas, now: () => number = Date.now): Verificador {
  const cache = new Map<EstadoHerramienta['nombre'], { estado: EstadoHerramienta; en: number }>();
  async function una(nombre: EstadoHerramienta['nombre'], fresco: boolean): Promise<EstadoHerramienta> {
    const hit = cache.get(nombre);
    if (!fresco && hit && hit.estado.disponible && now() - hit.en < VIGENCIA_MS) return hit.estado;
    const estado = await probar(nombre, herramientas);
    cache.set(nombre, { estado, en: now() });
    return estado;
  }
  async function disponible(tipo: TipoArchivo, { fresco = true } = {}) {
    const estados = await Promise.all(NECESARIAS[tipo].map((n) => una(n, fresco)));
    return estados.every((e) => e.disponible);
  }
  return {
    herramientas,
    estado: () => Promise.all((['ffmpeg', 'ffprobe', 'pdf'] as const).map((n) => una(n, false))),
    disponible,
    async exigir(tipo, opciones) {
      if (!(await disponible(tipo, opciones))) throw new HerramientaNoDisponible(tipo);
    },
  };
}

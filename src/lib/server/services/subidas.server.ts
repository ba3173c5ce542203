/**
 * Resumable uploads (tus, issue 18; decision 0041): who may start one for which form and how
 * large, the row that remembers its owner, and the single use of a finished upload by a create
 * call, which then runs exactly as if the file had come in a multipart form. A recurring job
 * removes what nobody will finish or use.
 */
import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import {
  EXTENSIONES_MATERIAL,
  extensionDe,
  FOTO_INVALIDA,
  IMAGEN_INVALIDA,
  MANUAL_INVALIDO,
  MATERIAL_INVALIDO,
  VIDEO_INVALIDO,
} from '../../validation/archivos.ts';
import type { DestinoSubida } from '../../validation/subidas.ts';
import type { UploadedFile } from '../archivo-recibido.server.ts';
import { bloqueos, subidas } from '../db/schema.server.ts';
import { ErrorDeDominio, sinPermisos, tooLarge } from '../errores.server.ts';
import { trabajoPeriodico } from '../jobs/periodico.server.ts';
import type { TipoArchivo } from '../media/herramientas.server.ts';
import { type Sniffed, sniffFile } from '../media/sniff.server.ts';
import { type Actor, esAdmin } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';

/** The recurring job that removes expired uploads. */
export const TRABAJO_LIMPIEZA_SUBIDAS = 'subidas-limpieza';
const CADENCIA_SEGUNDOS = 60 * 60;
/** Unfinished uploads expire this long after creation, unused finished ones this long after finishing. */
export const VIGENCIA_MS = 24 * 60 * 60 * 1000;

export const SUBIDA_NO_ENCONTRADA = 'No se encontró la subida';
export const SUBIDA_SIN_TERMINAR = 'La subida no ha terminado';
export const SUBIDA_OTRO_DESTINO = 'La subida no corresponde a este formulario';
export const SUBIDA_EN_USO = 'La subida ya se está usando';
export const SUBIDA_VACIA = 'El archivo está vacío';

/** Forms only admins may send today (capsules, manuals, forum categories): their uploads too. */
const SOLO_ADMINS: ReadonlySet<DestinoSubida> = new Set(['capsula', 'manual', 'categoria']);
/** The tool every file of a form needs (a material may be a PDF or not: checked when it is used). */
const HERRAMIENTA_DE: Partial<Record<DestinoSubida, TipoArchivo>> = { capsula: 'video', manual: 'pdf' };

/**
 * The file types each form takes, told from the bytes by the sniff its own handler runs again
 * when the upload is used (which also decodes the file), and the sentence it refuses others with.
 */
const TIPOS: Record<DestinoSubida, { admite: (tipo: Sniffed, nombre: string) => boolean; mensaje: string }> = {
  capsula: { admite: (tipo) => ['mp4', 'mov', 'avi', 'mpeg'].includes(tipo), mensaje: VIDEO_INVALIDO },
  manual: { admite: (tipo) => tipo === 'pdf', mensaje: MANUAL_INVALIDO },
  material: {
    // The name's extension names the family the bytes must be (biblioteca.server.ts).
    admite: (tipo, nombre) => {
      const extension = extensionDe(nombre);
      if (!extension) return false;
      const legacy = extension === 'doc' || extension === 'xls' || extension === 'ppt';
      return tipo === EXTENSIONES_MATERIAL[extension] || (legacy && tipo === 'office-legacy');
    },
    mensaje: MATERIAL_INVALIDO,
  },
  foto: { admite: (tipo) => tipo === 'jpeg' || tipo === 'png' || tipo === 'webp', mensaje: FOTO_INVALIDA },
  categoria: { admite: (tipo) => tipo === 'jpeg' || tipo === 'png', mensaje: IMAGEN_INVALIDA },
};

export interface NuevaSubida {
  id: string;
  destino: DestinoSubida;
  nombre: string;
  tipo: string;
  tamano: number;
}

const MB = 1024 * 1024;

export function createSubidasService(ctx: ServiceContext) {
  const { db } = ctx;
  const almacen = ctx.storage.almacenSubidas(VIGENCIA_MS);
  const { MAX_VIDEO_MB, MAX_MATERIAL_MB, MAX_MANUAL_MB, MAX_IMAGEN_MB } = ctx.config;
  const limites: Record<DestinoSubida, number> = {
    capsula: MAX_VIDEO_MB * MB,
    material: MAX_MATERIAL_MB * MB,
    manual: MAX_MANUAL_MB * MB,
    foto: MAX_IMAGEN_MB * MB,
    categoria: MAX_IMAGEN_MB * MB,
  };
  const errorSubida = (status: 400 | 404, detail: string) => new ErrorDeDominio(status, detail, { errors: { id_subida: [detail] } });

  /** The row and the bytes of an upload, whatever state it is in. */
  async function olvidar(id: string): Promise<void> {
    await db.delete(subidas).where(eq(subidas.id, id));
    await almacen.eliminar(id);
  }

  /** Why `actor` cannot use upload `id` for `destino` (the claim found no row to take). */
  async function rechazo(actor: Actor, id: string, destino: DestinoSubida): Promise<ErrorDeDominio> {
    const [fila] = await db
      .select()
      .from(subidas)
      .where(and(eq(subidas.id, id), eq(subidas.id_usuario, actor.id)));
    if (!fila) return errorSubida(404, SUBIDA_NO_ENCONTRADA);
    if (fila.destino !== destino) return errorSubida(400, SUBIDA_OTRO_DESTINO);
    if (!fila.terminada) return errorSubida(400, SUBIDA_SIN_TERMINAR);
    return errorSubida(400, SUBIDA_EN_USO);
  }

  /** Removes expired uploads and bytes no row knows; the number of uploads removed. */
  async function limpiar(): Promise<number> {
    const limite = new Date(ctx.now().getTime() - VIGENCIA_MS);
    const vencidas = await db
      .delete(subidas)
      .where(
        and(
          or(and(isNull(subidas.terminada), lt(subidas.fecha_creacion, limite)), lt(subidas.terminada, limite)),
          // A create call holds an upload for seconds; a claim this old is a crashed call's.
          or(isNull(subidas.usada), lt(subidas.usada, limite)),
        ),
      )
      .returning({ id: subidas.id });
    for (const { id } of vencidas) await almacen.eliminar(id);
    // Locks of servers that died holding them: taken over once expired anyway, removed here.
    await db.delete(bloqueos).where(lt(bloqueos.hasta, limite));
    // The row is written before the first byte, so bytes without a row belong to nobody.
    const guardadas = await almacen.ids();
    const conocidas = new Set<string>();
    for (let i = 0; i < guardadas.length; i += 500) {
      const lote = guardadas.slice(i, i + 500);
      for (const { id } of await db.select({ id: subidas.id }).from(subidas).where(inArray(subidas.id, lote))) conocidas.add(id);
    }
    const huerfanas = guardadas.filter((id) => !conocidas.has(id));
    for (const id of huerfanas) await almacen.eliminar(id);
    if (vencidas.length + huerfanas.length > 0) {
      ctx.log.info('expired uploads removed', { expired: vencidas.length, orphaned: huerfanas.length });
    }
    return vencidas.length + huerfanas.length;
  }

  /**
   * Runs `use` with finished upload `id` as the file of a form (field `campo`), once: the row is
   * claimed by one UPDATE, so two calls never both get it; it goes when `use` succeeds. A form
   * refused before its file was adopted releases the upload for another try.
   */
  async function usar<R>(
    actor: Actor,
    id: string,
    destino: DestinoSubida,
    campo: string,
    use: (file: UploadedFile) => Promise<R>,
  ): Promise<R> {
    const [fila] = await db
      .update(subidas)
      .set({ usada: ctx.now() })
      .where(
        and(
          eq(subidas.id, id),
          eq(subidas.id_usuario, actor.id),
          eq(subidas.destino, destino),
          isNotNull(subidas.terminada),
          isNull(subidas.usada),
        ),
      )
      .returning();
    if (!fila) throw await rechazo(actor, id, destino);
    const abierta = await almacen.abrir(id);
    if (!abierta) {
      await olvidar(id);
      throw errorSubida(404, SUBIDA_NO_ENCONTRADA);
    }
    let resultado: R;
    try {
      resultado = await use({ field: campo, filename: fila.nombre, mimeType: fila.tipo, tmpPath: abierta.tmpPath, size: fila.tamano });
    } catch (error) {
      if (await almacen.existe(id)) await db.update(subidas).set({ usada: null }).where(eq(subidas.id, id));
      else await olvidar(id);
      throw error;
    } finally {
      await abierta.liberar();
    }
    await olvidar(id);
    return resultado;
  }

  // Every hour; `limpiar` may be called as well.
  const limpieza = trabajoPeriodico(ctx, TRABAJO_LIMPIEZA_SUBIDAS, CADENCIA_SEGUNDOS, () => limpiar());

  return {
    almacen,
    /** The recurring clean-up (registered by the runtime, services.server.ts). */
    trabajos: { [TRABAJO_LIMPIEZA_SUBIDAS]: limpieza.trabajo },
    limiteBytes: (destino: DestinoSubida) => limites[destino],
    /** The largest upload any form takes (announced as Tus-Max-Size). */
    limiteMayor: () => Math.max(...Object.values(limites)),

    /**
     * Whether `actor` may start an upload of `tamano` bytes for `destino`: 403, 413 or 400 if not,
     * and 503 before the first byte when the tool that reads a capsule or a manual does not run
     * (issue 28), rather than after gigabytes.
     */
    async autorizar(actor: Actor, destino: DestinoSubida, tamano: number): Promise<void> {
      if (SOLO_ADMINS.has(destino) && !esAdmin(actor)) throw sinPermisos();
      if (tamano > limites[destino]) throw tooLarge(limites[destino]);
      if (tamano === 0) throw new ErrorDeDominio(400, SUBIDA_VACIA);
      const herramienta = HERRAMIENTA_DE[destino];
      // Every upload starts here: a tool that ran within the minute is not started again to ask.
      if (herramienta) await ctx.herramientas.exigir(herramienta, { fresco: false });
    },

    /** Remembers a new upload, before its first byte is stored. */
    async registrar(actor: Actor, subida: NuevaSubida): Promise<void> {
      await db.insert(subidas).values({ ...subida, id_usuario: actor.id });
    },

    /** Whether `actor` may read, continue or cancel upload `id`: theirs and not being used. Else 404. */
    async exigirPropia(actor: Actor, id: string): Promise<void> {
      const [fila] = await db
        .select({ id: subidas.id })
        .from(subidas)
        .where(and(eq(subidas.id, id), eq(subidas.id_usuario, actor.id), isNull(subidas.usada)));
      if (!fila) throw new ErrorDeDominio(404, SUBIDA_NO_ENCONTRADA);
    },

    /**
     * The last byte of upload `id` arrived: it is finished if its bytes are of a type its form
     * takes; otherwise it is deleted (row and bytes) and the form's 400 is thrown, so the person
     * hears at once rather than when the form is sent. The form checks the file again at use.
     */
    async terminar(id: string): Promise<void> {
      const [fila] = await db.select({ destino: subidas.destino, nombre: subidas.nombre }).from(subidas).where(eq(subidas.id, id));
      const abierta = fila ? await almacen.abrir(id) : null;
      if (!fila || !abierta) throw new ErrorDeDominio(404, SUBIDA_NO_ENCONTRADA);
      let tipo: Sniffed;
      try {
        tipo = await sniffFile(abierta.tmpPath);
      } finally {
        await abierta.liberar();
      }
      const { admite, mensaje } = TIPOS[fila.destino];
      if (!admite(tipo, fila.nombre)) {
        await olvidar(id);
        throw new ErrorDeDominio(400, mensaje);
      }
      await db.update(subidas).set({ terminada: ctx.now() }).where(eq(subidas.id, id));
    },

    /** After tus removed the bytes of a cancelled upload (termination). */
    olvidar,

    usar,

    /** `usar` for one person and one form, as the form handlers take it (http/archivo-o-subida.server.ts). */
    para:
      (actor: Actor, destino: DestinoSubida) =>
      <R>(id: string, campo: string, use: (file: UploadedFile) => Promise<R>) =>
        usar(actor, id, destino, campo, use),

    limpiar,

    /** Makes sure the recurring clean-up job is queued (at start-up; the job queues its next run). */
    programar: limpieza.programar,
  };
}

export type SubidasService = ReturnType<typeof createSubidasService>;

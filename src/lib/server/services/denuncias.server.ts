/**
 * Reports of abuse and the moderation queue (issue 17). A signed-in person reports an item they
 * can see, once ever; `DENUNCIAS_PARA_OCULTAR` open reports from different people hide it until an
 * admin decides. The admin's decision closes every open report of the item at once, acts on it
 * (ocultar, restaurar, eliminar through each section's own deletion, descartar), tells its author
 * and the people who reported it, and goes to the audit log. Reading an item of any kind, the
 * queue's pages and what a decision does besides closing the reports live in denuncias/.
 */
import { and, countDistinct, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import type { denunciaSchema, resolucionSchema, TipoDenuncia } from '../../validation/denuncias.ts';
import { denuncias } from '../db/schema.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { Actor } from './actor.server.ts';
import type { ServiceContext } from './context.server.ts';
import { createColaDenuncias, type ItemDenunciado } from './denuncias/cola.server.ts';
import { avisar, eliminarItem, type SeccionesDenunciables } from './denuncias/decision.server.ts';
import { leerItem, marcarOculto, NO_ENCONTRADO, puedeVer, SIN_TITULO } from './denuncias/items.server.ts';
import { codigoError } from './foro/comun.server.ts';
import { notificarModeracion } from './notificaciones.server.ts';
import { createRecursosService } from './recursos.server.ts';
import { type ActorAdmin, registrarAccion } from './registro.server.ts';

export type { ItemDenunciado } from './denuncias/cola.server.ts';
export { textoPlano } from './denuncias/cola.server.ts';
export { motivosEnPalabras } from './denuncias/decision.server.ts';

type DenunciaNueva = z.output<typeof denunciaSchema>;
type Resolucion = z.output<typeof resolucionSchema>;

export const YA_DENUNCIADO = 'Ya denunciaste este contenido.';
export const PROPIO = 'No puedes denunciar tu propio contenido.';
export const YA_RESUELTA = 'Esta denuncia ya fue resuelta.';
export const DENUNCIA_NO_ENCONTRADA = 'No se encontró la denuncia';
/** What the author is told when the reports hide their item. */
export const OCULTO_POR_DENUNCIAS = 'Varias personas lo denunciaron; un administrador lo revisará.';
/** The threshold's default, as config.server.ts gives it. */
const UMBRAL_POR_DEFECTO = 3;

/** How the audit log names each kind ('… sobre la cápsula «…»'). */
const NOMBRE_TIPO: Record<TipoDenuncia, string> = {
  capsula: 'la cápsula',
  material: 'el material',
  manual: 'el manual',
  comentario_capsula: 'un comentario en',
  comentario_material: 'un comentario en',
  comentario_manual: 'un comentario en',
  conversacion: 'la conversación',
  comentario_foro: 'un comentario en',
  usuario: 'el perfil de',
};

export function createDenunciasService(ctx: ServiceContext & { config: { DENUNCIAS_PARA_OCULTAR?: number } }, deps: SeccionesDenunciables) {
  const { db } = ctx;
  const umbral = ctx.config.DENUNCIAS_PARA_OCULTAR ?? UMBRAL_POR_DEFECTO;
  const recursos = createRecursosService(db, ctx.now);
  const cola = createColaDenuncias(ctx);

  return {
    /** Reports an item the actor can see (not their own), once; enough reports hide it. */
    async denunciar(actor: Actor, entrada: DenunciaNueva): Promise<Esquema<'Denuncia'>> {
      const { tipo, id } = entrada;
      const item = await leerItem(db, tipo, id);
      if (!item || !puedeVer(item, actor)) throw new ErrorDeDominio(404, NO_ENCONTRADO[tipo]);
      if (item.idAutor === actor.id) throw new ErrorDeDominio(400, PROPIO);
      const clave = and(eq(denuncias.tipo, tipo), eq(denuncias.id_recurso, id));
      return db.transaction(async (tx) => {
        // One report of an item at a time: two at once would each count the other's as missing
        // and neither would reach the threshold. Released at the commit.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`denuncia:${tipo}`}), ${id})`);
        const [ya] = await tx
          .select({ id: denuncias.id })
          .from(denuncias)
          .where(and(clave, eq(denuncias.id_usuario, actor.id)));
        if (ya) throw new ErrorDeDominio(409, YA_DENUNCIADO);
        let fila: typeof denuncias.$inferSelect | undefined;
        try {
          [fila] = await tx
            .insert(denuncias)
            .values({
              tipo,
              id_recurso: id,
              id_usuario: actor.id,
              motivo: entrada.motivo,
              detalle: entrada.detalle,
              fecha_creacion: ctx.now(),
            })
            .returning();
        } catch (error) {
          // Two requests at once: the unique index lets one through.
          if (codigoError(error) === '23505') throw new ErrorDeDominio(409, YA_DENUNCIADO);
          throw error;
        }
        if (!fila) throw new Error('report not stored');
        const [abiertas] = await tx
          .select({ n: countDistinct(denuncias.id_usuario) })
          .from(denuncias)
          .where(and(clave, eq(denuncias.estado, 'abierta')));
        let oculto = item.oculto;
        if ((abiertas?.n ?? 0) >= umbral && !oculto && (await marcarOculto(tx, tipo, id, true))) {
          oculto = true;
          await notificarModeracion(tx, {
            tipo: 'oculto',
            para: [item.idAutor],
            recurso_tipo: tipo,
            id_recurso: id,
            titulo: item.titulo,
            enlace: item.enlace,
            detalle: OCULTO_POR_DENUNCIAS,
          });
          ctx.log.info('item hidden by reports', { tipo, id, reports: abiertas?.n });
        }
        return {
          id: fila.id,
          tipo,
          id_recurso: id,
          motivo: fila.motivo,
          detalle: fila.detalle,
          fecha_creacion: fila.fecha_creacion.toISOString(),
          oculto,
        };
      });
    },

    /**
     * Whether a hidden item awaits an admin's decision (open reports hid it) rather than being
     * hidden by one (its reports resolved with 'ocultar'): the item pages' notice says which.
     */
    async enRevision(tipo: TipoDenuncia, id: number): Promise<boolean> {
      const [abierta] = await db
        .select({ id: denuncias.id })
        .from(denuncias)
        .where(and(eq(denuncias.tipo, tipo), eq(denuncias.id_recurso, id), eq(denuncias.estado, 'abierta')))
        .limit(1);
      return abierta !== undefined;
    },

    pendientes: cola.pendientes,
    listar: cola.listar,

    /** An admin decides: every open report of the item closed, the action applied, everyone concerned told. */
    async resolver(admin: ActorAdmin, idDenuncia: number, r: Resolucion): Promise<ItemDenunciado> {
      const [d] = await db.select().from(denuncias).where(eq(denuncias.id, idDenuncia));
      if (!d) throw new ErrorDeDominio(404, DENUNCIA_NO_ENCONTRADA);
      if (d.estado === 'resuelta') throw new ErrorDeDominio(409, YA_RESUELTA);
      const item = await leerItem(db, d.tipo, d.id_recurso);
      // Deletions run in their sections' own transactions (and remove files): first, so the
      // reports close only once the item is gone.
      if (r.accion === 'eliminar' && item) await eliminarItem({ ...deps, recursos }, admin, item);
      const fecha = ctx.now();
      await db.transaction(async (tx) => {
        const cerradas = await tx
          .update(denuncias)
          .set({ estado: 'resuelta', accion: r.accion, motivo_resolucion: r.motivo, id_admin: admin.id, fecha_resolucion: fecha })
          .where(and(eq(denuncias.tipo, d.tipo), eq(denuncias.id_recurso, d.id_recurso), eq(denuncias.estado, 'abierta')))
          .returning({ id: denuncias.id, denunciante: denuncias.id_usuario, motivo: denuncias.motivo });
        // Another admin decided meanwhile.
        if (!cerradas.some((c) => c.id === idDenuncia)) throw new ErrorDeDominio(409, YA_RESUELTA);
        const estabaOculto = item?.oculto ?? false;
        if (item && r.accion !== 'eliminar') {
          const ocultar = r.accion === 'ocultar';
          if (ocultar || estabaOculto) await marcarOculto(tx, d.tipo, d.id_recurso, ocultar);
        }
        await avisar(
          tx,
          item,
          { accion: r.accion, motivo: r.motivo, estabaOculto },
          { tipo: d.tipo, id: d.id_recurso, denunciantes: cerradas.map((c) => c.denunciante), motivos: cerradas.map((c) => c.motivo) },
        );
        const que = `${NOMBRE_TIPO[d.tipo]} «${item?.titulo ?? SIN_TITULO}»`;
        await registrarAccion(tx, admin, {
          accion: `moderar_${r.accion}`,
          tipo: d.tipo,
          id_registro: d.id_recurso,
          detalle: `Resolvió ${cerradas.length === 1 ? '1 denuncia' : `${cerradas.length} denuncias`} sobre ${que} (${r.accion})${r.motivo ? `. Motivo: ${r.motivo}` : ''}`,
        });
      });
      ctx.log.info('reports resolved', { tipo: d.tipo, id: d.id_recurso, accion: r.accion, adminId: admin.id });
      const [hecho] = await cola.entradas('resuelta', [{ tipo: d.tipo, id_recurso: d.id_recurso, fecha }]);
      if (!hecho) throw new Error('resolved reports vanished');
      return hecho;
    },
  };
}

export type DenunciasService = ReturnType<typeof createDenunciasService>;

/**
 * What is new where people follow (issue 35, decision 0074): when a material, a capsule or a
 * manual becomes visible to the network (stored, ready, not hidden), or a conversation opens in a
 * category, its followers get one bell notification per follow, kept while unread and counted
 * ('3 materiales nuevos para MA07 OA 03'), so a busy OA does not flood anyone. Never to its
 * author, never for what a person other than its author may not see, never to an inactive account;
 * one notification per person and item, from their most specific follow.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { TipoGuardable } from '../../../validation/colecciones.ts';
import type { TipoSeguimiento } from '../../../validation/seguimientos.ts';
import type { Db } from '../../db/client.server.ts';
import {
  capsulas,
  foroConversaciones,
  manuales,
  materiales,
  materialesOas,
  notificaciones,
  seguimientos,
  usuarios,
} from '../../db/schema.server.ts';
import type { Logger } from '../../log.server.ts';
import { createItems } from '../colecciones/items.server.ts';
import { claveAreaNivel, claveCategoria, claveOa, claveUsuario, createObjetivos } from './objetivos.server.ts';

/** Nobody in particular: what they see is what every signed-in person who is not its author sees. */
const CUALQUIERA = { id: 0, groups: [] };

/** Which follow speaks for an item when a person has several that match it: the most specific. */
const PRIORIDAD: TipoSeguimiento[] = ['oa', 'usuario', 'area_nivel', 'categoria'];

/** An item's author and the keys of the follows it matches. */
async function hechos(db: Db, tipo: TipoGuardable, id: number): Promise<{ autor: number; claves: string[] } | null> {
  if (tipo === 'material') {
    const [m] = await db
      .select({ autor: materiales.id_usuario, area: materiales.id_area, nivel: materiales.codigo_nivel })
      .from(materiales)
      .where(eq(materiales.id, id));
    if (!m) return null;
    const oas = await db.select({ id: materialesOas.id_oa }).from(materialesOas).where(eq(materialesOas.id_material, id));
    return { autor: m.autor, claves: [...oas.map((o) => claveOa(o.id)), claveUsuario(m.autor), claveAreaNivel(m.area, m.nivel)] };
  }
  if (tipo === 'capsula') {
    const [c] = await db
      .select({ autor: capsulas.id_usuario, area: capsulas.id_area, nivel: capsulas.codigo_nivel })
      .from(capsulas)
      .where(eq(capsulas.id, id));
    return c ? { autor: c.autor, claves: [claveUsuario(c.autor), claveAreaNivel(c.area, c.nivel)] } : null;
  }
  if (tipo === 'manual') {
    const [m] = await db.select({ autor: manuales.id_usuario }).from(manuales).where(eq(manuales.id, id));
    return m ? { autor: m.autor, claves: [claveUsuario(m.autor)] } : null;
  }
  const [c] = await db
    .select({ autor: foroConversaciones.id_usuario_creador, categoria: foroConversaciones.id_categoria })
    .from(foroConversaciones)
    .where(eq(foroConversaciones.id, id));
  return c ? { autor: c.autor, claves: [claveCategoria(c.categoria)] } : null;
}

/**
 * Tells the followers of what `ref` matches that it is there. Call it once the item is visible
 * (stored, ready); it checks that itself, so calling it for a hidden or unready item tells no
 * one. A failure is logged and never undoes the upload that called it.
 */
export async function avisarNovedad(
  ctx: { db: Db; now: () => Date; log: Pick<Logger, 'error'> },
  ref: { tipo: TipoGuardable; id: number },
): Promise<number> {
  const { db } = ctx;
  try {
    const h = await hechos(db, ref.tipo, ref.id);
    if (!h) return 0;
    const info = (await createItems(db).visibles(CUALQUIERA, [ref])).get(`${ref.tipo}:${ref.id}`);
    if (!info) return 0;
    const filas = await db
      .select({ s: seguimientos })
      .from(seguimientos)
      .innerJoin(usuarios, eq(usuarios.id, seguimientos.id_usuario))
      .where(
        and(
          inArray(seguimientos.clave, h.claves),
          ne(seguimientos.id_usuario, h.autor),
          eq(usuarios.activo, true),
          isNull(usuarios.eliminada_en),
        ),
      );
    // Each person's most specific follow of the item.
    const porPersona = new Map<number, typeof seguimientos.$inferSelect>();
    for (const { s } of filas.sort((a, b) => PRIORIDAD.indexOf(a.s.tipo) - PRIORIDAD.indexOf(b.s.tipo))) {
      if (!porPersona.has(s.id_usuario)) porPersona.set(s.id_usuario, s);
    }
    const elegidos = [...porPersona.values()];
    if (elegidos.length === 0) return 0;
    const etiquetas = await createObjetivos(db).etiquetas(elegidos);
    const ahora = ctx.now();
    await db.transaction(async (tx) => {
      for (const s of elegidos) {
        const objetivo = etiquetas.get(s.clave);
        if (!objetivo) continue;
        const grupo = and(
          eq(notificaciones.id_usuario, s.id_usuario),
          eq(notificaciones.tipo, 'seguimiento'),
          eq(notificaciones.recurso_tipo, `seguimiento_${s.tipo}`),
          eq(notificaciones.id_recurso, s.id),
          isNull(notificaciones.leida_en),
        );
        // The unread one of this follow counts one more, and opens the followed page.
        const sumadas = await tx
          .update(notificaciones)
          .set({
            cantidad: sql`${notificaciones.cantidad} + 1`,
            detalle: sql`case when ${notificaciones.detalle} = ${ref.tipo} then ${ref.tipo} else 'varios' end`,
            titulo: objetivo.etiqueta,
            enlace: objetivo.url,
            id_actor: h.autor,
            fecha: ahora,
          })
          .where(grupo)
          .returning({ id: notificaciones.id });
        if (sumadas.length > 0) continue;
        await tx.insert(notificaciones).values({
          id_usuario: s.id_usuario,
          tipo: 'seguimiento',
          id_actor: h.autor,
          recurso_tipo: `seguimiento_${s.tipo}`,
          id_recurso: s.id,
          titulo: objetivo.etiqueta,
          detalle: ref.tipo,
          enlace: info.url,
          fecha: ahora,
        });
      }
    });
    return elegidos.length;
  } catch (error) {
    ctx.log.error('follow notifications failed', { tipo: ref.tipo, id: ref.id, error: String(error) });
    return 0;
  }
}

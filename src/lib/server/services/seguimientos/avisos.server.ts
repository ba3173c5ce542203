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
import { type Db, filasDe } from '../../db/client.server.ts';
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
import { createObjetivos, type Objetivo, objetivoDe } from './objetivos.server.ts';

/** Nobody in particular: what they see is what every signed-in person who is not its author sees. */
const CUALQUIERA = { id: 0, groups: [] };

/** Which follow speaks for an item when a person has several that match it: the most specific. */
const PRIORIDAD: TipoSeguimiento[] = ['oa', 'usuario', 'area_nivel', 'categoria'];

/** An item's author and the targets of the follows it matches. */
async function hechos(db: Db, tipo: TipoGuardable, id: number): Promise<{ autor: number; objetivos: Objetivo[] } | null> {
  const de = (autor: number, ...objetivos: Objetivo[]) => ({
    autor,
    objetivos: [...objetivos, objetivoDe({ tipo: 'usuario', usuario: autor })],
  });
  if (tipo === 'material') {
    const [m] = await db
      .select({ autor: materiales.id_usuario, area: materiales.id_area, nivel: materiales.codigo_nivel })
      .from(materiales)
      .where(eq(materiales.id, id));
    if (!m) return null;
    const oas = await db.select({ id: materialesOas.id_oa }).from(materialesOas).where(eq(materialesOas.id_material, id));
    return de(
      m.autor,
      ...oas.map((o) => objetivoDe({ tipo: 'oa', oa: o.id })),
      objetivoDe({ tipo: 'area_nivel', area: m.area, nivel: m.nivel }),
    );
  }
  if (tipo === 'capsula') {
    const [c] = await db
      .select({ autor: capsulas.id_usuario, area: capsulas.id_area, nivel: capsulas.codigo_nivel })
      .from(capsulas)
      .where(eq(capsulas.id, id));
    return c ? de(c.autor, objetivoDe({ tipo: 'area_nivel', area: c.area, nivel: c.nivel })) : null;
  }
  if (tipo === 'manual') {
    const [m] = await db.select({ autor: manuales.id_usuario }).from(manuales).where(eq(manuales.id, id));
    return m ? de(m.autor) : null;
  }
  const [c] = await db
    .select({ autor: foroConversaciones.id_usuario_creador, categoria: foroConversaciones.id_categoria })
    .from(foroConversaciones)
    .where(eq(foroConversaciones.id, id));
  return c ? { autor: c.autor, objetivos: [objetivoDe({ tipo: 'categoria', categoria: c.categoria })] } : null;
}

/**
 * Tells the followers of what `ref` matches that it is there. Call it once the item is visible
 * (stored, ready); it checks that itself, so calling it for a hidden or unready item tells no
 * one. A failure is logged and never undoes the upload that called it.
 *
 * Set-based, so an upload does not wait on its followers one by one: each person's most specific
 * follow is chosen in SQL (DISTINCT ON), and each followed target then takes two statements for
 * all its followers (count up the unread ones, insert the rest), however many they are.
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
    const claves = h.objetivos.map((o) => o.clave);
    const prioridad = sql`case ${seguimientos.tipo} ${sql.join(
      PRIORIDAD.map((tipo, i) => sql`when ${tipo} then ${sql.raw(String(i))}`),
      sql` `,
    )} end`;
    // Each person's most specific follow of the item (never its author's, never an inactive or erased account's).
    const elegidos = db
      .selectDistinctOn([seguimientos.id_usuario], { id: seguimientos.id, id_usuario: seguimientos.id_usuario, clave: seguimientos.clave })
      .from(seguimientos)
      .innerJoin(usuarios, eq(usuarios.id, seguimientos.id_usuario))
      .where(
        and(
          inArray(seguimientos.clave, claves),
          ne(seguimientos.id_usuario, h.autor),
          eq(usuarios.activo, true),
          isNull(usuarios.eliminada_en),
        ),
      )
      .orderBy(seguimientos.id_usuario, prioridad, seguimientos.id)
      .as('e');
    const seguidas = new Set((await db.selectDistinct({ clave: elegidos.clave }).from(elegidos)).map((f) => f.clave));
    const objetivos = h.objetivos.filter((o) => seguidas.has(o.clave));
    if (objetivos.length === 0) return 0;
    const etiquetas = await createObjetivos(db).etiquetas(objetivos);
    const ahora = ctx.now();
    return await db.transaction(async (tx) => {
      let avisados = 0;
      for (const o of objetivos) {
        const objetivo = etiquetas.get(o.clave);
        if (!objetivo) continue;
        const recurso = `seguimiento_${o.tipo}`;
        /** The unread notification of the follow `e` (of this target). */
        const sinLeer = and(
          eq(notificaciones.tipo, 'seguimiento'),
          eq(notificaciones.recurso_tipo, recurso),
          isNull(notificaciones.leida_en),
          eq(notificaciones.id_usuario, elegidos.id_usuario),
          eq(notificaciones.id_recurso, elegidos.id),
        );
        // The unread one of each follow counts one more, and opens the followed page.
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
          .from(elegidos)
          .where(and(eq(elegidos.clave, o.clave), sinLeer))
          .returning({ id: notificaciones.id });
        // The others start one, which opens the item.
        const nuevas = await filasDe<{ id: number }>(
          tx,
          sql`
          insert into ${notificaciones} (id_usuario, tipo, id_actor, recurso_tipo, id_recurso, titulo, detalle, enlace, fecha)
          select ${elegidos.id_usuario}, 'seguimiento', ${h.autor}::integer, ${recurso}::text, ${elegidos.id},
            ${objetivo.etiqueta}::text, ${ref.tipo}::text, ${info.url}::text, ${ahora.toISOString()}::timestamptz
          from ${elegidos}
          where ${elegidos.clave} = ${o.clave} and not exists (select 1 from ${notificaciones} where ${sinLeer})
          returning id`,
        );
        avisados += sumadas.length + nuevas.length;
      }
      return avisados;
    });
  } catch (error) {
    ctx.log.error('follow notifications failed', { tipo: ref.tipo, id: ref.id, error: String(error) });
    return 0;
  }
}

/**
 * An OA's mochila (issue 35, decision 0076): every library material aligned with one learning
 * objective that the reader may see, newest first, as the source of a mochila like a collection's.
 */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import { materiales, materialesOas, oas } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { Actor } from '../actor.server.ts';
import type { Items } from './items.server.ts';
import type { FuenteMochila } from './mochila.server.ts';

export const OA_NO_ENCONTRADO = 'No se encontró el OA';

export function createFuenteOa(db: Db, items: Items) {
  return async function fuenteOa(actor: Actor, idOa: number): Promise<FuenteMochila> {
    const [oa] = await db.select({ codigo: oas.codigo, descripcion: oas.descripcion }).from(oas).where(eq(oas.id, idOa));
    if (!oa) throw new ErrorDeDominio(404, OA_NO_ENCONTRADO);
    const filas = await db
      .select({ id: materialesOas.id_material })
      .from(materialesOas)
      .innerJoin(materiales, eq(materiales.id, materialesOas.id_material))
      .where(eq(materialesOas.id_oa, idOa))
      .orderBy(desc(materiales.fecha_creacion), desc(materiales.id));
    const refs = filas.map((f) => ({ tipo: 'material' as const, id: f.id }));
    const vistos = await items.visibles(actor, refs);
    return {
      nombre: `Materiales de ${oa.codigo}`,
      descripcion: oa.descripcion,
      presentacion: `Materiales alineados con ${oa.codigo} compartidos`,
      enlace: `/biblioteca-docente/oa/${encodeURIComponent(oa.codigo)}`,
      items: refs.map((r) => ({ tipo: r.tipo, id_item: r.id, nota: '', contenido: vistos.get(items.clave(r)) ?? null })),
    };
  };
}

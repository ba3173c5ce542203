/**
 * The curriculum import's plan written (issue 30), through the transaction that computed it: new
 * units first (the OAs name them by code), then new OAs in batches, then the changed OAs in one
 * statement per batch, so a 20 000-row file is a few dozen statements.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import { oas, unidades, unidadesNiveles } from '../../db/schema.server.ts';
import type { Plan } from './importar.server.ts';

const LOTE = 500;

/** Writes the plan through `tx` (the transaction that computed it). */
export async function aplicar(tx: Db, plan: Plan): Promise<void> {
  const idDe = new Map<string, number>();
  for (const u of plan.unidades) {
    if (u.id === undefined) {
      const [fila] = await tx
        .insert(unidades)
        .values({ codigo: u.codigo, nombre: u.nombre, id_area: u.area, codigo_nivel: u.nivel, orden: u.orden, vigente: u.vigente })
        .returning({ id: unidades.id });
      if (!fila) throw new Error(`unit ${u.codigo} not stored`);
      u.id = fila.id;
    } else if (u.escribir) {
      await tx.update(unidades).set({ nombre: u.nombre, orden: u.orden, vigente: u.vigente }).where(eq(unidades.id, u.id));
    }
    idDe.set(u.codigo, u.id);
    // The other levels the file gives, when they differ from the stored ones (decision 0084).
    if (u.otros !== undefined) {
      await tx.delete(unidadesNiveles).where(eq(unidadesNiveles.id_unidad, u.id));
      const id_unidad = u.id;
      if (u.otros.length > 0) await tx.insert(unidadesNiveles).values(u.otros.map((codigo_nivel) => ({ id_unidad, codigo_nivel })));
    }
  }
  const unidadId = (codigo: string) => {
    const id = idDe.get(codigo);
    if (id === undefined) throw new Error(`unit ${codigo} not in the plan`);
    return id;
  };
  const nuevos = plan.oas.filter((o) => o.id === undefined);
  for (let i = 0; i < nuevos.length; i += LOTE) {
    await tx.insert(oas).values(
      nuevos.slice(i, i + LOTE).map((o) => ({
        codigo: o.codigo,
        descripcion: o.descripcion,
        unidad: unidadId(o.unidad),
        orden: o.orden,
        vigente: o.vigente,
        fuente: o.fuente,
      })),
    );
  }
  const cambiados = plan.oas.filter((o) => o.id !== undefined && o.escribir);
  for (let i = 0; i < cambiados.length; i += LOTE) {
    const valores = sql.join(
      cambiados
        .slice(i, i + LOTE)
        .map(
          (o) =>
            sql`(${o.id}::integer, ${unidadId(o.unidad)}::integer, ${o.orden}::smallint, ${o.descripcion}::text, ${o.vigente}::boolean, ${o.fuente}::text)`,
        ),
      sql`, `,
    );
    // One statement per batch: a 20 000-row file is a few dozen statements, not 20 000.
    await tx.execute(
      sql`update "oas" set "id_unidad" = v.unidad, "orden" = v.orden, "descripcion" = v.descripcion, "vigente" = v.vigente, "fuente" = v.fuente from (values ${valores}) as v(id, unidad, orden, descripcion, vigente, fuente) where "oas"."id" = v.id`,
    );
  }
}

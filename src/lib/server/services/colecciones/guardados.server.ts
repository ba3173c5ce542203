/**
 * 'Guardar' (issue 35): a person keeps a capsule, material, manual or conversation to come back
 * to. Only what they may see can be saved; what is later hidden, retired or deleted drops out of
 * their list (its row stays, and shows again if the item is restored).
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import type { TipoGuardable } from '../../../validation/colecciones.ts';
import type { Db } from '../../db/client.server.ts';
import { guardados } from '../../db/schema.server.ts';
import type { Actor } from '../actor.server.ts';
import type { Items, RefItem } from './items.server.ts';

/** A saved item as the API answers it: the item's information and when it was saved. */
export type Guardado = Esquema<'Guardado'>;

/** Saved items read per list: enough for years of use, and a bound on one answer. */
const LISTA_MAX = 2000;

export function createGuardados(db: Db, items: Items, now: () => Date) {
  const delUsuario = (actor: Actor, ref: RefItem) =>
    and(eq(guardados.id_usuario, actor.id), eq(guardados.tipo, ref.tipo), eq(guardados.id_item, ref.id));

  return {
    /** Saves an item this person may see (again is no change); a 400 for anything else. */
    async guardar(actor: Actor, ref: RefItem): Promise<Guardado> {
      const info = await items.exigir(actor, ref);
      await db
        .insert(guardados)
        .values({ id_usuario: actor.id, tipo: ref.tipo, id_item: ref.id, fecha_creacion: now() })
        .onConflictDoNothing();
      const [fila] = await db.select({ fecha: guardados.fecha_creacion }).from(guardados).where(delUsuario(actor, ref));
      return { ...info, fecha_guardado: (fila?.fecha ?? now()).toISOString() };
    },

    /** Forgets a saved item; one that was not saved is no change. */
    async quitar(actor: Actor, ref: RefItem): Promise<void> {
      await db.delete(guardados).where(delUsuario(actor, ref));
    },

    /** This person's saved items they may still see, newest first. */
    async listar(actor: Actor, tipo?: TipoGuardable): Promise<Guardado[]> {
      const filas = await db
        .select({ tipo: guardados.tipo, id: guardados.id_item, fecha: guardados.fecha_creacion })
        .from(guardados)
        .where(and(eq(guardados.id_usuario, actor.id), tipo ? eq(guardados.tipo, tipo) : undefined))
        .orderBy(desc(guardados.fecha_creacion), desc(guardados.id_item))
        .limit(LISTA_MAX);
      const vistos = await items.visibles(actor, filas);
      return filas.flatMap((f) => {
        const info = vistos.get(items.clave(f));
        return info ? [{ ...info, fecha_guardado: f.fecha.toISOString() }] : [];
      });
    },

    /** Whether this person saved this item (the detail pages' button). */
    async esta(actor: Actor, ref: RefItem): Promise<boolean> {
      const [fila] = await db.select({ tipo: guardados.tipo }).from(guardados).where(delUsuario(actor, ref));
      return fila !== undefined;
    },
  };
}

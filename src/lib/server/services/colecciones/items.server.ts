/**
 * What a saved or collected item is, as one person may see it (issue 35): a capsule, material,
 * manual or forum conversation named by kind and id, looked up in its own table with the rules
 * its section uses (moderation, a capsule not ready, an inactive forum category). One lookup for
 * 'Mis guardados', the collections and the mochila, so none of them shows what the person may not see.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Esquema } from '../../../api/contrato.ts';
import { truncar } from '../../../format/index.ts';
import { TIPOS_GUARDABLES, type TipoGuardable } from '../../../validation/colecciones.ts';
import type { Db } from '../../db/client.server.ts';
import { capsulas, foroCategorias, foroConversaciones, manuales, materiales, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import type { Actor } from '../actor.server.ts';
import { categoriasVisibles } from '../foro/comun.server.ts';
import { capsulaVisible, visibleA } from '../recursos.server.ts';

export interface RefItem {
  tipo: TipoGuardable;
  id: number;
}

/** An item this person may see: what a list or the mochila shows of it (openapi.yaml's ContenidoItem). */
export type InfoItem = Esquema<'ContenidoItem'>;

/** The words of the refusal to save what one may not see. */
export const NO_DISPONIBLE = 'Ese contenido no existe o no está disponible para ti';

const clave = (r: RefItem) => `${r.tipo}:${r.id}`;
const texto = (s: string) =>
  truncar(
    s
      .replace(/<[^>]*>/g, ' ')
      .replace(/[#*_`>[\]()!]/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
    300,
  );
const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const autorDe = (u: { primer_nombre: string; apellido_paterno: string }) => `${u.primer_nombre} ${u.apellido_paterno}`.trim();
const persona = { primer_nombre: usuarios.primer_nombre, apellido_paterno: usuarios.apellido_paterno };

/** The ids of one kind among the refs. */
const idsDe = (refs: RefItem[], tipo: TipoGuardable) => refs.filter((r) => r.tipo === tipo).map((r) => r.id);

/** What every kind's query reads of an item, under the same names. */
interface Fila {
  id: number;
  titulo: string;
  /** Its description, or a conversation's text: the list's summary. */
  texto: string;
  fecha: Date | string;
  autor: string;
}
const aInfo = (tipo: TipoGuardable, f: Fila, url: string, miniatura: string): InfoItem => ({
  tipo,
  id: f.id,
  titulo: f.titulo,
  resumen: texto(f.texto),
  url,
  miniatura,
  autor: f.autor,
  fecha: iso(f.fecha),
});

export function createItems(db: Db) {
  /** Each kind's items among `ids` (never empty) this person may see, with the rules of its own section. */
  const lectores: Record<TipoGuardable, (actor: Actor, ids: number[]) => Promise<InfoItem[]>> = {
    async capsula(actor, ids) {
      const filas = await db
        .select({ id: capsulas.id, titulo: capsulas.titulo, texto: capsulas.descripcion, fecha: capsulas.fecha_creacion, ...persona })
        .from(capsulas)
        .innerJoin(usuarios, eq(usuarios.id, capsulas.id_usuario))
        .where(and(inArray(capsulas.id, ids), capsulaVisible(actor)));
      return filas.map((f) => aInfo('capsula', { ...f, autor: autorDe(f) }, `/capsulas/${f.id}`, `/miniaturas/capsulas/${f.id}/`));
    },
    async material(actor, ids) {
      const filas = await db
        .select({
          id: materiales.id,
          titulo: materiales.titulo,
          texto: materiales.descripcion,
          fecha: materiales.fecha_creacion,
          ...persona,
        })
        .from(materiales)
        .innerJoin(usuarios, eq(usuarios.id, materiales.id_usuario))
        .where(and(inArray(materiales.id, ids), visibleA(actor, materiales)));
      return filas.map((f) =>
        aInfo('material', { ...f, autor: autorDe(f) }, `/biblioteca-docente/${f.id}`, `/miniaturas/bdocente/${f.id}/`),
      );
    },
    async manual(actor, ids) {
      const filas = await db
        .select({
          id: manuales.id,
          titulo: manuales.titulo,
          texto: manuales.descripcion,
          fecha: manuales.fecha_creacion,
          autor: manuales.autor,
        })
        .from(manuales)
        .where(and(inArray(manuales.id, ids), visibleA(actor, manuales)));
      return filas.map((f) => aInfo('manual', f, `/manuales/${f.id}`, `/miniaturas/manuales/${f.id}/`));
    },
    async conversacion(actor, ids) {
      const filas = await db
        .select({
          id: foroConversaciones.id,
          categoria: foroConversaciones.id_categoria,
          titulo: foroConversaciones.titulo,
          texto: foroConversaciones.contenido,
          fecha: foroConversaciones.fecha_creacion,
          ...persona,
        })
        .from(foroConversaciones)
        .innerJoin(foroCategorias, eq(foroCategorias.id, foroConversaciones.id_categoria))
        .innerJoin(usuarios, eq(usuarios.id, foroConversaciones.id_usuario_creador))
        .where(and(inArray(foroConversaciones.id, ids), visibleA(actor, foroConversaciones), categoriasVisibles(actor)));
      return filas.map((f) =>
        aInfo(
          'conversacion',
          { ...f, autor: autorDe(f) },
          `/foro/categorias/${f.categoria}/conversacion/${f.id}`,
          `/miniaturas/categorias/${f.categoria}/`,
        ),
      );
    },
  };

  /** The items among `refs` this person may see, keyed 'tipo:id'; the rest are left out. */
  async function visibles(actor: Actor, refs: RefItem[]): Promise<Map<string, InfoItem>> {
    const out = new Map<string, InfoItem>();
    for (const tipo of TIPOS_GUARDABLES) {
      const ids = idsDe(refs, tipo);
      if (ids.length === 0) continue;
      for (const info of await lectores[tipo](actor, ids)) out.set(clave(info), info);
    }
    return out;
  }

  return {
    visibles,
    clave,
    /** One item this person may see, or a 400 with NO_DISPONIBLE (saving or collecting it). */
    async exigir(actor: Actor, ref: RefItem): Promise<InfoItem> {
      const info = (await visibles(actor, [ref])).get(clave(ref));
      if (!info) throw new ErrorDeDominio(400, NO_DISPONIBLE);
      return info;
    },
  };
}

export type Items = ReturnType<typeof createItems>;

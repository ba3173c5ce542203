/**
 * What can be followed (issue 35, decision 0074): an OA, an area and level, a colleague or a forum
 * category. Each is named by one key ('oa:12', 'area_nivel:3:7B', 'usuario:5', 'categoria:2'),
 * unique per person, and read with its label and page: the list, the notifications and the
 * mail say 'MA07 OA 03', 'Matemática · 7° básico', 'Ana Pérez' or the category's name.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { nombreCorto } from '../../../format/index.ts';
import type { NuevoSeguimiento, TipoSeguimiento } from '../../../validation/seguimientos.ts';
import type { Db } from '../../db/client.server.ts';
import { areas, areasNiveles, foroCategorias, niveles, oas, unidades, usuarios } from '../../db/schema.server.ts';
import { ErrorDeDominio } from '../../errores.server.ts';
import { type Actor, esAdmin } from '../actor.server.ts';
import { categoriasVisibles } from '../foro/comun.server.ts';

/** The refusal to follow what does not exist or one may not see (nothing is written). */
export const NO_SEGUIBLE: Record<TipoSeguimiento, string> = {
  oa: 'Ese OA no existe o ya no está vigente',
  area_nivel: 'Esa área no se enseña en ese nivel',
  usuario: 'Esa persona no existe o no está disponible para ti',
  categoria: 'Esa categoría no existe o no está disponible para ti',
};

/** A follow's target, with its columns as the table stores them. */
export interface Objetivo {
  tipo: TipoSeguimiento;
  clave: string;
  id_oa: number | null;
  id_area: number | null;
  codigo_nivel: string | null;
  id_seguido: number | null;
  id_categoria: number | null;
}

/** A target as people read it. */
export interface Etiqueta {
  etiqueta: string;
  url: string;
}

export const claveOa = (id: number) => `oa:${id}`;
export const claveAreaNivel = (area: number, nivel: string) => `area_nivel:${area}:${nivel}`;
export const claveUsuario = (id: number) => `usuario:${id}`;
export const claveCategoria = (id: number) => `categoria:${id}`;

/** The target a request names, as stored (before it is checked). */
export function objetivoDe(s: NuevoSeguimiento): Objetivo {
  const vacio = { id_oa: null, id_area: null, codigo_nivel: null, id_seguido: null, id_categoria: null };
  switch (s.tipo) {
    case 'oa':
      return { ...vacio, tipo: 'oa', clave: claveOa(s.oa ?? 0), id_oa: s.oa ?? 0 };
    case 'area_nivel':
      return {
        ...vacio,
        tipo: 'area_nivel',
        clave: claveAreaNivel(s.area ?? 0, s.nivel ?? ''),
        id_area: s.area ?? 0,
        codigo_nivel: s.nivel ?? '',
      };
    case 'usuario':
      return { ...vacio, tipo: 'usuario', clave: claveUsuario(s.usuario ?? 0), id_seguido: s.usuario ?? 0 };
    case 'categoria':
      return { ...vacio, tipo: 'categoria', clave: claveCategoria(s.categoria ?? 0), id_categoria: s.categoria ?? 0 };
  }
}

/** A person others may follow: active, not erased, their profile not hidden by moderation (admins see it). */
const seguible = (actor: Actor) =>
  and(eq(usuarios.activo, true), isNull(usuarios.eliminada_en), esAdmin(actor) ? undefined : eq(usuarios.oculto, false));

export function createObjetivos(db: Db) {
  /** Whether this person may follow the target now: exists, current, visible to them, and not themself. */
  async function disponible(actor: Actor, o: Objetivo): Promise<boolean> {
    switch (o.tipo) {
      case 'oa': {
        const [f] = await db
          .select({ id: oas.id })
          .from(oas)
          .innerJoin(unidades, eq(unidades.id, oas.unidad))
          .where(and(eq(oas.id, o.id_oa ?? 0), eq(oas.vigente, true), eq(unidades.vigente, true)));
        return f !== undefined;
      }
      case 'area_nivel': {
        const [f] = await db
          .select({ a: areasNiveles.id_area })
          .from(areasNiveles)
          .where(and(eq(areasNiveles.id_area, o.id_area ?? 0), eq(areasNiveles.codigo_nivel, o.codigo_nivel ?? '')));
        return f !== undefined;
      }
      case 'usuario': {
        if (o.id_seguido === actor.id) return false;
        const [f] = await db
          .select({ id: usuarios.id })
          .from(usuarios)
          .where(and(eq(usuarios.id, o.id_seguido ?? 0), seguible(actor)));
        return f !== undefined;
      }
      case 'categoria': {
        const [f] = await db
          .select({ id: foroCategorias.id })
          .from(foroCategorias)
          .where(and(eq(foroCategorias.id, o.id_categoria ?? 0), categoriasVisibles(actor)));
        return f !== undefined;
      }
    }
  }

  /** The target or a 400 in Spanish. */
  async function exigir(actor: Actor, o: Objetivo): Promise<void> {
    if (o.tipo === 'usuario' && o.id_seguido === actor.id) throw new ErrorDeDominio(400, 'No puedes seguirte a ti mismo');
    if (!(await disponible(actor, o))) throw new ErrorDeDominio(400, NO_SEGUIBLE[o.tipo]);
  }

  /** Each target's label and page, keyed by its key; one query per kind present. */
  async function etiquetas(objetivos: Objetivo[]): Promise<Map<string, Etiqueta>> {
    const out = new Map<string, Etiqueta>();
    const ids = (f: (o: Objetivo) => number | null) => [...new Set(objetivos.map(f).filter((v): v is number => v !== null))];
    const idsOa = ids((o) => o.id_oa);
    if (idsOa.length > 0) {
      for (const f of await db.select({ id: oas.id, codigo: oas.codigo }).from(oas).where(inArray(oas.id, idsOa))) {
        out.set(claveOa(f.id), { etiqueta: f.codigo, url: `/biblioteca-docente/oa/${encodeURIComponent(f.codigo)}` });
      }
    }
    const pares = objetivos.filter((o) => o.tipo === 'area_nivel');
    if (pares.length > 0) {
      const filas = await db
        .select({ id: areas.id, area: areas.nombre, codigo: niveles.codigo, nivel: niveles.nombre })
        .from(areas)
        .innerJoin(niveles, sql`true`)
        .where(
          and(
            inArray(
              areas.id,
              ids((o) => o.id_area),
            ),
            inArray(
              niveles.codigo,
              pares.map((o) => o.codigo_nivel ?? ''),
            ),
          ),
        );
      for (const f of filas) {
        out.set(claveAreaNivel(f.id, f.codigo), {
          etiqueta: `${f.area} · ${f.nivel}`,
          url: `/biblioteca-docente/?${new URLSearchParams({ id_area: String(f.id), id_nivel: f.codigo })}`,
        });
      }
    }
    const idsUsuario = ids((o) => o.id_seguido);
    if (idsUsuario.length > 0) {
      const filas = await db
        .select({ id: usuarios.id, primer_nombre: usuarios.primer_nombre, apellido_paterno: usuarios.apellido_paterno })
        .from(usuarios)
        .where(inArray(usuarios.id, idsUsuario));
      for (const f of filas) out.set(claveUsuario(f.id), { etiqueta: nombreCorto(f), url: `/perfil/${f.id}` });
    }
    const idsCategoria = ids((o) => o.id_categoria);
    if (idsCategoria.length > 0) {
      const filas = await db
        .select({ id: foroCategorias.id, nombre: foroCategorias.nombre })
        .from(foroCategorias)
        .where(inArray(foroCategorias.id, idsCategoria));
      for (const f of filas) out.set(claveCategoria(f.id), { etiqueta: f.nombre, url: `/foro/categorias/${f.id}` });
    }
    return out;
  }

  return { disponible, exigir, etiquetas };
}

export type Objetivos = ReturnType<typeof createObjetivos>;

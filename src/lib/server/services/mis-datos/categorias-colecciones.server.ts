/**
 * What a person saved, collected and follows (issue 35) as categories of 'Mis datos' (issue 31,
 * decision 0058): their saved items, their collections with each item's place and note, and what
 * they follow. Items are named by kind, id and title as they are now (a deleted one: by kind and
 * id only); a follow by the name its page shows.
 */
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { NOMBRES_TIPO, type TipoGuardable } from '../../../validation/colecciones.ts';
import type { Db } from '../../db/client.server.ts';
import {
  capsulas,
  colecciones,
  coleccionItems,
  foroConversaciones,
  guardados,
  manuales,
  materiales,
  seguimientos,
} from '../../db/schema.server.ts';
import { createObjetivos } from '../seguimientos/objetivos.server.ts';
import { cuando, type Definicion, type Fila, texto } from './definicion.server.ts';

/** An item's title from its own table ('' once it is deleted). */
const tituloDe = (tipo: PgColumn, id: PgColumn) =>
  sql<string>`coalesce(case ${tipo}
    when 'capsula' then (select ${capsulas.titulo} from ${capsulas} where ${capsulas.id} = ${id})
    when 'material' then (select ${materiales.titulo} from ${materiales} where ${materiales.id} = ${id})
    when 'manual' then (select ${manuales.titulo} from ${manuales} where ${manuales.id} = ${id})
    when 'conversacion' then (select ${foroConversaciones.titulo} from ${foroConversaciones} where ${foroConversaciones.id} = ${id})
  end, '')`;

/** 'Material «Guía de fracciones»', or 'Material n.º 12 (ya no existe)'. */
const item = (f: Fila) => {
  const tipo = NOMBRES_TIPO[f.tipo as TipoGuardable]?.uno ?? String(f.tipo);
  return f.titulo ? `${tipo} «${texto(f.titulo)}»` : `${tipo} n.º ${f.id_item} (ya no existe)`;
};

export const CATEGORIAS_COLECCIONES: Definicion[] = [
  {
    clave: 'guardados',
    nombre: 'Contenido que guardaste',
    cargar: (db, id) =>
      db
        .select({
          tipo: guardados.tipo,
          id_item: guardados.id_item,
          titulo: tituloDe(guardados.tipo, guardados.id_item),
          fecha_creacion: guardados.fecha_creacion,
        })
        .from(guardados)
        .where(eq(guardados.id_usuario, id))
        .orderBy(desc(guardados.fecha_creacion)),
    linea: (f) => `${item(f)}, guardado el ${cuando(f.fecha_creacion)}`,
  },
  {
    clave: 'colecciones',
    nombre: 'Tus colecciones',
    async cargar(db: Db, id: number) {
      const filas = await db
        .select({
          id: colecciones.id,
          nombre: colecciones.nombre,
          descripcion: colecciones.descripcion,
          compartida: colecciones.compartida,
          id_origen: colecciones.id_origen,
          fecha_creacion: colecciones.fecha_creacion,
          fecha_actualizacion: colecciones.fecha_actualizacion,
        })
        .from(colecciones)
        .where(eq(colecciones.id_usuario, id))
        .orderBy(desc(colecciones.fecha_actualizacion), desc(colecciones.id));
      const items = await db
        .select({
          id_coleccion: coleccionItems.id_coleccion,
          posicion: coleccionItems.posicion,
          tipo: coleccionItems.tipo,
          id_item: coleccionItems.id_item,
          titulo: tituloDe(coleccionItems.tipo, coleccionItems.id_item),
          nota: coleccionItems.nota,
          fecha_creacion: coleccionItems.fecha_creacion,
        })
        .from(coleccionItems)
        .where(
          inArray(
            coleccionItems.id_coleccion,
            filas.map((f) => f.id),
          ),
        )
        .orderBy(asc(coleccionItems.id_coleccion), asc(coleccionItems.posicion));
      return filas.map((f) => ({
        ...f,
        items: items.filter((i) => i.id_coleccion === f.id).map(({ id_coleccion: _, ...i }) => i),
      }));
    },
    linea: (f) => {
      const items = f.items as Fila[];
      const notas = items.filter((i) => i.nota).length;
      return `«${texto(f.nombre)}» (${f.compartida ? 'compartida' : 'privada'}), ${items.length} ${items.length === 1 ? 'elemento' : 'elementos'}${notas > 0 ? `, ${notas} con nota` : ''}; actualizada el ${cuando(f.fecha_actualizacion)}`;
    },
  },
  {
    clave: 'seguimientos',
    nombre: 'Lo que sigues',
    async cargar(db: Db, id: number) {
      const filas = await db
        .select()
        .from(seguimientos)
        .where(eq(seguimientos.id_usuario, id))
        .orderBy(desc(seguimientos.fecha_creacion), desc(seguimientos.id));
      const etiquetas = await createObjetivos(db).etiquetas(filas);
      return filas.map((f) => ({
        id: f.id,
        tipo: f.tipo,
        sigues: etiquetas.get(f.clave)?.etiqueta ?? 'Ya no está disponible',
        fecha_creacion: f.fecha_creacion,
      }));
    },
    linea: (f) => `${texto(f.sigues)}, desde el ${cuando(f.fecha_creacion)}`,
  },
];

/**
 * The pieces every category of what is held about a person is written with (issue 31, decision
 * 0058): the shape of a category, the readable forms of a value, the profile and its catalogue
 * lists. The categories are in categorias-cuenta.server.ts and categorias-aportes.server.ts.
 */
import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { formatearFecha, formatearFechaHora } from '../../../format/index.ts';
import { type Db, filasDe } from '../../db/client.server.ts';

export type Fila = Record<string, unknown>;

/** A file the copy carries: a stored one (`clave`) or one made from a row (`contenido`), at `ruta` inside the ZIP. */
export interface ArchivoCopia {
  ruta: string;
  clave?: string;
  contenido?: string;
  /** What it is, for the index: 'Original de la cápsula «Fracciones»'. */
  descripcion: string;
  /** Carried instead when the stored file is gone (a capsule's light MP4 for its original). */
  alternativa?: { ruta: string; clave: string; descripcion: string };
}

export interface Categoria {
  clave: string;
  nombre: string;
  cantidad: number;
  filas: Fila[];
  /** One readable line per row (the profile: one per field with a value). */
  lineas: string[];
  archivos: ArchivoCopia[];
}

export interface Definicion {
  clave: string;
  nombre: string;
  cargar(db: Db, id: number): Promise<Fila[]>;
  linea(fila: Fila): string;
  archivos?(fila: Fila): ArchivoCopia[];
}

export const cuando = (v: unknown) => (v instanceof Date || typeof v === 'string' ? formatearFechaHora(v) : '');
export const texto = (v: unknown) =>
  String(v ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
export const corto = (v: unknown, n = 80) => {
  const t = texto(v);
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
/** A stored file, kept in the ZIP under its storage key. */
export const guardado = (clave: unknown, descripcion: string): ArchivoCopia[] =>
  typeof clave === 'string' && clave !== '' ? [{ ruta: `archivos/${clave}`, clave, descripcion }] : [];

export const REACCIONES: Record<number, string> = { 1: 'Me gusta', 2: 'Gran idea', 3: 'Me interesa', 4: 'Lo utilizaré', 5: 'Me asombra' };

/** The profile's fields as the person sees them named; `foto_perfil` is the photo's storage key. */
export const CAMPOS_PERFIL: Record<string, string> = {
  primer_nombre: 'Primer nombre',
  segundo_nombre: 'Segundo nombre',
  apellido_paterno: 'Apellido paterno',
  apellido_materno: 'Apellido materno',
  email: 'Correo',
  rut: 'RUT',
  genero: 'Género',
  nacionalidad: 'Nacionalidad',
  telefono: 'Teléfono',
  fecha_nacimiento: 'Fecha de nacimiento',
  foto_perfil: 'Foto de perfil',
  titulo_profesional: 'Título profesional',
  rol: 'Rol',
  preferencia_correo: 'Correos de notificaciones',
  ahorro_datos: 'Ahorro de datos',
  oculto_directorio: 'Oculto del directorio',
  privacidad_version: 'Versión del aviso de privacidad aceptada',
  privacidad_aceptada_en: 'Aviso de privacidad aceptado el',
  fecha_creacion: 'Cuenta creada el',
};

export const conValor = (v: unknown) => v !== null && v !== undefined && v !== '' && v !== false;

export function lineaCampo(campo: string, valor: unknown): string {
  const nombre = CAMPOS_PERFIL[campo] ?? campo;
  if (valor === true) return `${nombre}: sí`;
  if (valor instanceof Date) return `${nombre}: ${formatearFechaHora(valor)}`;
  if (campo === 'fecha_nacimiento') return `${nombre}: ${formatearFecha(`${String(valor)}T12:00:00Z`)}`;
  if (campo === 'foto_perfil') return `${nombre}: sí (incluida en la copia)`;
  return `${nombre}: ${String(valor)}`;
}

export const perfil: Definicion = {
  clave: 'perfil',
  nombre: 'Datos de tu perfil',
  async cargar(db, id) {
    const filas = await filasDe<Fila>(
      db,
      sql`
      select u.primer_nombre, u.segundo_nombre, u.apellido_paterno, u.apellido_materno, u.email, u.rut, u.genero,
             u.nacionalidad, u.telefono, u.fecha_nacimiento::text as fecha_nacimiento, u.foto_perfil,
             coalesce(p.titulo_profesional, '') as titulo_profesional, u.rol, u.groups, u.activo,
             u.preferencia_correo, u.ahorro_datos, u.oculto_directorio, u.privacidad_version,
             u.privacidad_aceptada_en, u.baja_programada, u.fecha_creacion
      from usuarios u left join perfiles_docentes p on p.id_usuario = u.id where u.id = ${id}`,
    );
    return filas.map((f) => ({
      ...f,
      privacidad_aceptada_en: f.privacidad_aceptada_en ? new Date(String(f.privacidad_aceptada_en)) : null,
      baja_programada: f.baja_programada ? new Date(String(f.baja_programada)) : null,
      fecha_creacion: new Date(String(f.fecha_creacion)),
    }));
  },
  linea: () => '',
  archivos: (f) => guardado(f.foto_perfil, 'Tu foto de perfil'),
};

/**
 * A list the teacher profile links to a catalogue (schools, specialties, areas, levels): each
 * entry's id and name, in the catalogue's order.
 */
export function delPerfil(
  clave: string,
  nombre: string,
  enlace: { tabla: PgTable; usuario: PgColumn; ref: PgColumn },
  catalogo: { tabla: PgTable; id: PgColumn; nombre: PgColumn; orden: PgColumn },
): Definicion {
  return {
    clave,
    nombre,
    cargar: (db, id) =>
      db
        .select({ id: catalogo.id, nombre: catalogo.nombre })
        .from(enlace.tabla)
        .innerJoin(catalogo.tabla, eq(catalogo.id, enlace.ref))
        .where(eq(enlace.usuario, id))
        .orderBy(catalogo.orden),
    linea: (f) => String(f.nombre),
  };
}

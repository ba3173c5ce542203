/** Users as the contract shows them (openapi.yaml Usuario), with the teacher profile. */
import { eq, inArray } from 'drizzle-orm';
import type { Esquema } from '../../api/contrato.ts';
import type { Db } from '../db/client.server.ts';
import {
  areas,
  colegios,
  especialidades,
  niveles,
  perfilAreas,
  perfilColegios,
  perfilEspecialidades,
  perfilesDocentes,
  perfilNiveles,
  usuarios,
} from '../db/schema.server.ts';

export type UsuarioRow = typeof usuarios.$inferSelect;

export type PerfilDocente = Esquema<'PerfilDocente'>;
export type Usuario = Esquema<'Usuario'>;

/** The public URL of a user's photo, versioned by its storage key so caches refresh on change. */
export function fotoUrl(row: Pick<UsuarioRow, 'id' | 'foto_perfil'>): string {
  if (!row.foto_perfil) return '';
  const version = row.foto_perfil.replace(/[^a-zA-Z0-9]/g, '').slice(-12);
  return `/miniaturas/usuarios/${row.id}?v=${version}`;
}

/** The small version of a photo URL (avatars, the top bar): same version, /miniaturas/usuarios_min/. */
export const fotoPequena = (url: string): string => url.replace(/^\/miniaturas\/usuarios\//, '/miniaturas/usuarios_min/');

export async function cargarPerfiles(db: Db, ids: number[]): Promise<Map<number, PerfilDocente>> {
  const result = new Map<number, PerfilDocente>();
  if (ids.length === 0) return result;
  const [perfiles, cols, esps, ars, nivs] = await Promise.all([
    db.select().from(perfilesDocentes).where(inArray(perfilesDocentes.id_usuario, ids)),
    db
      .select({ id_usuario: perfilColegios.id_usuario, id: colegios.id, nombre: colegios.nombre })
      .from(perfilColegios)
      .innerJoin(colegios, eq(colegios.id, perfilColegios.id_colegio))
      .where(inArray(perfilColegios.id_usuario, ids))
      .orderBy(colegios.nombre),
    db
      .select({ id_usuario: perfilEspecialidades.id_usuario, nombre: especialidades.nombre })
      .from(perfilEspecialidades)
      .innerJoin(especialidades, eq(especialidades.id, perfilEspecialidades.id_especialidad))
      .where(inArray(perfilEspecialidades.id_usuario, ids))
      .orderBy(especialidades.nombre),
    db
      .select({ id_usuario: perfilAreas.id_usuario, nombre: areas.nombre })
      .from(perfilAreas)
      .innerJoin(areas, eq(areas.id, perfilAreas.id_area))
      .where(inArray(perfilAreas.id_usuario, ids))
      .orderBy(areas.nombre),
    // Levels in school-year order: by name, '1° medio' would come before '2° básico'.
    db
      .select({ id_usuario: perfilNiveles.id_usuario, nombre: niveles.nombre })
      .from(perfilNiveles)
      .innerJoin(niveles, eq(niveles.codigo, perfilNiveles.codigo_nivel))
      .where(inArray(perfilNiveles.id_usuario, ids))
      .orderBy(niveles.orden),
  ]);
  for (const p of perfiles) {
    result.set(p.id_usuario, { colegio: [], titulo_profesional: p.titulo_profesional, especialidad: [], area: [], nivel: [] });
  }
  for (const c of cols) result.get(c.id_usuario)?.colegio.push({ id: c.id, nombre: c.nombre });
  for (const e of esps) result.get(e.id_usuario)?.especialidad.push(e.nombre);
  for (const a of ars) result.get(a.id_usuario)?.area.push(a.nombre);
  for (const n of nivs) result.get(n.id_usuario)?.nivel.push(n.nombre);
  return result;
}

export function toUsuario(row: UsuarioRow, perfil: PerfilDocente | undefined): Usuario {
  return {
    id: row.id,
    primer_nombre: row.primer_nombre,
    segundo_nombre: row.segundo_nombre,
    apellido_paterno: row.apellido_paterno,
    apellido_materno: row.apellido_materno,
    rut: row.rut,
    email: row.email,
    genero: row.genero,
    nacionalidad: row.nacionalidad,
    telefono: row.telefono,
    fecha_nacimiento: row.fecha_nacimiento,
    foto_perfil: fotoUrl(row),
    rol: row.rol,
    groups: row.groups,
    usuario_asociado: perfil ?? null,
    oculto: row.oculto,
  };
}

/** The tables obtenerUsuario reads: a cache of its answers is stale once one of them is written. */
export const TABLAS_USUARIO = [
  usuarios,
  perfilesDocentes,
  perfilColegios,
  colegios,
  perfilEspecialidades,
  especialidades,
  perfilAreas,
  areas,
  perfilNiveles,
  niveles,
];

export async function obtenerUsuario(db: Db, id: number): Promise<Usuario | null> {
  const [row] = await db.select().from(usuarios).where(eq(usuarios.id, id));
  if (!row) return null;
  const perfiles = await cargarPerfiles(db, [row.id]);
  return toUsuario(row, perfiles.get(row.id));
}

export const nombreCorto = (u: Pick<UsuarioRow, 'primer_nombre' | 'apellido_paterno'>) => `${u.primer_nombre} ${u.apellido_paterno}`.trim();

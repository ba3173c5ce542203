/** Users as the contract shows them (openapi.yaml Usuario), with the teacher profile. */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Esquema } from '../../api/contrato.ts';
import { type Db, preparadaPorBase } from '../db/client.server.ts';
import { calificada, listaJson, unoDe } from '../db/fragmentos.server.ts';
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
  segundosFactores,
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

/**
 * `listaJson` of a profile list, tied to the outer query's person through `columna` (its table's
 * id_usuario) and `idUsuario` (the outer row's id: `perfiles_docentes.id_usuario` by default).
 */
const dePerfil = (columna: PgColumn, desde: SQL, idUsuario: PgColumn = perfilesDocentes.id_usuario) =>
  sql`from ${desde} where ${calificada(columna)} = ${calificada(idUsuario)}`;

/** The profile's areas, by name, of the person whose id is the outer row's `idUsuario`: each as `elemento` in a json list. */
export const areasDelPerfil = <T>(elemento: SQL, idUsuario?: PgColumn) =>
  listaJson<T>(
    elemento,
    calificada(areas.nombre),
    dePerfil(
      perfilAreas.id_usuario,
      sql`${perfilAreas} join ${areas} on ${calificada(areas.id)} = ${calificada(perfilAreas.id_area)}`,
      idUsuario,
    ),
  );

/**
 * The same for the levels, in school-year order (by name, '1° medio' would come before
 * '2° básico').
 */
export const nivelesDelPerfil = <T>(elemento: SQL, idUsuario?: PgColumn) =>
  listaJson<T>(
    elemento,
    calificada(niveles.orden),
    dePerfil(
      perfilNiveles.id_usuario,
      sql`${perfilNiveles} join ${niveles} on ${calificada(niveles.codigo)} = ${calificada(perfilNiveles.codigo_nivel)}`,
      idUsuario,
    ),
  );

/** A teacher profile's columns on its `perfiles_docentes` row: each list a json column (issue 36). */
const columnasPerfil = {
  titulo_profesional: perfilesDocentes.titulo_profesional,
  colegio: listaJson<{ id: number; nombre: string }>(
    sql`json_build_object('id', ${calificada(colegios.id)}, 'nombre', ${calificada(colegios.nombre)})`,
    calificada(colegios.nombre),
    dePerfil(
      perfilColegios.id_usuario,
      sql`${perfilColegios} join ${colegios} on ${calificada(colegios.id)} = ${calificada(perfilColegios.id_colegio)}`,
    ),
  ),
  especialidad: listaJson<string>(
    calificada(especialidades.nombre),
    calificada(especialidades.nombre),
    dePerfil(
      perfilEspecialidades.id_usuario,
      sql`${perfilEspecialidades} join ${especialidades} on ${calificada(especialidades.id)} = ${calificada(perfilEspecialidades.id_especialidad)}`,
    ),
  ),
  area: areasDelPerfil<string>(calificada(areas.nombre)),
  nivel: nivelesDelPerfil<string>(calificada(niveles.nombre)),
};

const perfilesDe = preparadaPorBase((db) =>
  db
    .select({ id_usuario: perfilesDocentes.id_usuario, ...columnasPerfil })
    .from(perfilesDocentes)
    .where(unoDe(perfilesDocentes.id_usuario, 'ids'))
    .prepare('cargar_perfiles'),
);

/**
 * The teacher profiles of `ids`, each with its schools, specialties, areas and levels: one
 * statement (each list a json column), not one per list (issue 36: every signed-in page reads
 * its reader's profile), prepared once per database handle (decision 0089: a directory page's
 * ten profiles took 3.75 ms on PGlite at 100x, most of it planning).
 */
export async function cargarPerfiles(db: Db, ids: number[]): Promise<Map<number, PerfilDocente>> {
  const result = new Map<number, PerfilDocente>();
  if (ids.length === 0) return result;
  for (const { id_usuario, ...perfil } of await perfilesDe(db).execute({ ids })) result.set(id_usuario, perfil);
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

/** The tables leerUsuario (and obtenerUsuario) reads: a cache of its answers is stale once one of them is written. */
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
  segundosFactores,
];

/**
 * A person and their teacher profile, if any, and whether they confirmed a second factor (the
 * pages' reader, usuario-actual.server.ts), in one statement, prepared once per database (issue 36).
 */
const usuarioDe = preparadaPorBase((db) =>
  db
    .select({
      usuario: usuarios,
      ...columnasPerfil,
      segundo_factor: sql<boolean>`exists (select 1 from ${segundosFactores} where ${calificada(segundosFactores.id_usuario)} = ${calificada(usuarios.id)} and ${calificada(segundosFactores.confirmado)} is not null)`,
    })
    .from(usuarios)
    .leftJoin(perfilesDocentes, eq(perfilesDocentes.id_usuario, usuarios.id))
    .where(eq(usuarios.id, sql.placeholder('id')))
    .prepare('obtener_usuario'),
);

/**
 * A person as the contract shows them, with their profile. Every signed-in page whose reader is not
 * cached reads it: building the statement took more of the server's time than PostgreSQL took to
 * answer it, so it is built once and PostgreSQL plans it once per connection.
 */
export async function obtenerUsuario(db: Db, id: number): Promise<Usuario | null> {
  return (await leerUsuario(db, id))?.usuario ?? null;
}

/** The same, with the row it was made of and whether the person confirmed a second factor. */
export async function leerUsuario(db: Db, id: number): Promise<{ usuario: Usuario; row: UsuarioRow; segundo_factor: boolean } | null> {
  const [fila] = await usuarioDe(db).execute({ id });
  if (!fila) return null;
  // The title is never null on a profile's row: null is the left join finding no profile.
  const { usuario: row, titulo_profesional, segundo_factor, ...listas } = fila;
  const usuario = toUsuario(row, titulo_profesional === null ? undefined : { titulo_profesional, ...listas });
  return { usuario, row, segundo_factor };
}

export const nombreCorto = (u: Pick<UsuarioRow, 'primer_nombre' | 'apellido_paterno'>) => `${u.primer_nombre} ${u.apellido_paterno}`.trim();

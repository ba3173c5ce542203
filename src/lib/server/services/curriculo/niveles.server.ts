/**
 * Which levels a unit is taught in (decision 0084): its own (`unidades.codigo_nivel`) and any of
 * `unidades_niveles`, for the modules of "3° o 4° medio" and the núcleos of the transition tramo
 * (NT1 and NT2). Every read that asks for a level's units goes through here, so a shared unit is
 * offered in each of its levels' forms, filters, map and console tree.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, filasDe } from '../../db/client.server.ts';
import { calificada } from '../../db/fragmentos.server.ts';
import { niveles, perfilNiveles, unidades, unidadesNiveles } from '../../db/schema.server.ts';

/** The query's `unidades` row is taught in `nivel` (a code, or an expression that gives one). */
export const unidadEnNivel = (nivel: string | SQL): SQL =>
  sql`(${calificada(unidades.codigo_nivel)} = ${nivel} or exists (select 1 from ${unidadesNiveles} where ${calificada(unidadesNiveles.id_unidad)} = ${calificada(unidades.id)} and ${calificada(unidadesNiveles.codigo_nivel)} = ${nivel}))`;

/**
 * The level teacher `idUsuario` would open the query's `unidades` row in: the first, in school
 * order, of its levels their profile names, else the unit's own. A 4° medio teacher who follows a
 * shared module's OA to the library or the upload form lands in 4° medio, where their materials are.
 */
export const nivelParaDocente = (idUsuario: number): SQL<string> =>
  sql<string>`coalesce((select ${calificada(niveles.codigo)} from ${niveles} join ${perfilNiveles} on ${calificada(perfilNiveles.codigo_nivel)} = ${calificada(niveles.codigo)} where ${calificada(perfilNiveles.id_usuario)} = ${idUsuario} and ${unidadEnNivel(calificada(niveles.codigo))} order by ${calificada(niveles.orden)} limit 1), ${calificada(unidades.codigo_nivel)})`;

/** The names of every level the query's `unidades` row is taught in, in school order: ['3° medio', '4° medio'] for a shared module. */
export const nombresDeNiveles: SQL<string[]> = sql<
  string[]
>`(select array_agg(${calificada(niveles.nombre)} order by ${calificada(niveles.orden)}) from ${niveles} where ${calificada(niveles.codigo)} = ${calificada(unidades.codigo_nivel)} or ${calificada(niveles.codigo)} in (select ${calificada(unidadesNiveles.codigo_nivel)} from ${unidadesNiveles} where ${calificada(unidadesNiveles.id_unidad)} = ${calificada(unidades.id)}))`;

/** The same names in one text: '3° medio y 4° medio'. */
export const nombreDeNiveles: SQL<string> = sql<string>`array_to_string(${nombresDeNiveles}, ' y ')`;

/** The codes of the other levels the query's `unidades` row is taught in, or null (most units). */
export const otrosNivelesSql: SQL<string[] | null> = sql<
  string[] | null
>`(select array_agg(${calificada(unidadesNiveles.codigo_nivel)} order by ${calificada(unidadesNiveles.codigo_nivel)}) from ${unidadesNiveles} where ${calificada(unidadesNiveles.id_unidad)} = ${calificada(unidades.id)})`;

/**
 * The levels unit `origen` is taught in and unit `destino` is not, by name in school order, and
 * whether that is all of them (the two share no level).
 */
export async function nivelesQueFaltan(db: Db, origen: number, destino: number): Promise<{ nombres: string[]; todos: boolean }> {
  const filas = await filasDe<{ nombre: string; falta: boolean }>(
    db,
    sql`select ${calificada(niveles.nombre)} as nombre, not exists (select 1 from ${unidades} where ${calificada(unidades.id)} = ${destino} and ${unidadEnNivel(calificada(niveles.codigo))}) as falta
      from ${niveles} where exists (select 1 from ${unidades} where ${calificada(unidades.id)} = ${origen} and ${unidadEnNivel(calificada(niveles.codigo))})
      order by ${calificada(niveles.orden)}`,
  );
  const nombres = filas.filter((f) => f.falta).map((f) => f.nombre);
  return { nombres, todos: nombres.length === filas.length };
}

/**
 * Everything the platform holds about one person (issue 31, Ley 21.719's access and portability,
 * docs/decisions/0058), by category: the rows as JSON for the copy, a readable line per row for
 * the page, and the stored files each row names. One list of categories serves the summary
 * (GET /api/usuarios/{id}/mis-datos/, /perfil/mis-datos) and the copy's ZIP, so neither can miss
 * what the other shows. Secrets are never part of it: password and token hashes stay out.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.server.ts';
import { usuarios } from '../../db/schema.server.ts';
import { CATEGORIAS_APORTES } from './categorias-aportes.server.ts';
import { CATEGORIAS_COLECCIONES } from './categorias-colecciones.server.ts';
import { CATEGORIAS_CUENTA } from './categorias-cuenta.server.ts';
import { CAMPOS_PERFIL, type Categoria, conValor, type Definicion, lineaCampo } from './definicion.server.ts';

export type { ArchivoCopia, Categoria } from './definicion.server.ts';

const CATEGORIAS: Definicion[] = [...CATEGORIAS_CUENTA, ...CATEGORIAS_APORTES, ...CATEGORIAS_COLECCIONES];

async function recolectarUna(db: Db, def: Definicion, id: number): Promise<Categoria> {
  const filas = await def.cargar(db, id);
  const archivos = filas.flatMap((f) => def.archivos?.(f) ?? []);
  if (def.clave !== 'perfil')
    return { clave: def.clave, nombre: def.nombre, cantidad: filas.length, filas, lineas: filas.map(def.linea), archivos };
  // The profile is one row: what counts is each field with a value.
  const [fila = {}] = filas;
  const campos = Object.entries(fila).filter(([campo, valor]) => campo in CAMPOS_PERFIL && conValor(valor));
  return {
    clave: def.clave,
    nombre: def.nombre,
    cantidad: campos.length,
    filas: [fila],
    lineas: campos.map(([campo, valor]) => lineaCampo(campo, valor)),
    archivos,
  };
}

/** Every category of what is held about `id`, in order. */
export async function recolectar(db: Db, id: number): Promise<Categoria[]> {
  const categorias: Categoria[] = [];
  for (const def of CATEGORIAS) categorias.push(await recolectarUna(db, def, id));
  return categorias;
}

/** Whether an account `id` exists and is not erased (whose data there is to show). */
export async function existe(db: Db, id: number): Promise<boolean> {
  const [fila] = await db
    .select({ id: usuarios.id })
    .from(usuarios)
    .where(and(eq(usuarios.id, id), isNull(usuarios.eliminada_en)));
  return fila !== undefined;
}

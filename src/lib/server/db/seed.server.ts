/**
 * Idempotent seed: the Chilean curriculum lookups, methodologies, material types and schools,
 * plus the first admin on an empty database. Running it again changes nothing: levels and area
 * names are refreshed from the data file, units and OAs only added when missing (ids stay).
 */
import { randomBytes } from 'node:crypto';
import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password.server.ts';
import type { Db } from './client.server.ts';
import {
  areas,
  areasNiveles,
  colegios,
  metodologias,
  niveles,
  oas,
  tiposMaterial,
  unidades,
  unidadesNiveles,
  usuarios,
} from './schema.server.ts';
import { curriculo } from './seed/curriculo.ts';
import * as data from './seed/curriculum-data.ts';

export async function seedCatalogos(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(niveles)
      .values([...data.niveles])
      .onConflictDoUpdate({
        target: niveles.codigo,
        set: { nombre: sql`excluded.nombre`, ciclo: sql`excluded.ciclo`, orden: sql`excluded.orden` },
      });
    const areaRows = await tx
      .insert(areas)
      .values(data.areas.map(({ codigo, nombre }) => ({ codigo, nombre })))
      .onConflictDoUpdate({ target: areas.codigo, set: { nombre: sql`excluded.nombre` } })
      .returning({ id: areas.id, codigo: areas.codigo });
    const areaId = new Map(areaRows.map((a) => [a.codigo, a.id]));
    const idOf = (codigo: string) => {
      const id = areaId.get(codigo);
      if (id === undefined) throw new Error(`seed: unknown area ${codigo}`);
      return id;
    };
    const taught = data.areas.flatMap((a) => a.niveles.map((codigo_nivel) => ({ id_area: idOf(a.codigo), codigo_nivel })));
    if (taught.length > 0) await tx.insert(areasNiveles).values(taught).onConflictDoNothing();

    // The curriculum: what is missing is added, nothing the network edited in the console (names,
    // statements, order, units, retired) is changed back (issue 30, docs/decisions/0054).
    // Four statements at every start, whatever the size of the curriculum: the missing units, their
    // ids, the other levels of shared units (decision 0084), the missing OAs.
    const pares = curriculo();
    const filasUnidades = pares.flatMap((par) =>
      par.unidades.map((u, i) => ({ codigo: u.codigo, nombre: u.nombre, id_area: idOf(par.area), codigo_nivel: par.nivel, orden: i + 1 })),
    );
    if (filasUnidades.length > 0) await tx.insert(unidades).values(filasUnidades).onConflictDoNothing({ target: unidades.codigo });
    const idUnidad = new Map((await tx.select({ id: unidades.id, codigo: unidades.codigo }).from(unidades)).map((u) => [u.codigo, u.id]));
    const filasNiveles = pares.flatMap((par) =>
      par.unidades.flatMap((u) => {
        const id_unidad = idUnidad.get(u.codigo);
        return id_unidad === undefined ? [] : par.otrosNiveles.map((codigo_nivel) => ({ id_unidad, codigo_nivel }));
      }),
    );
    if (filasNiveles.length > 0) await tx.insert(unidadesNiveles).values(filasNiveles).onConflictDoNothing();
    const filasOas = pares.flatMap((par) =>
      par.unidades.flatMap((u) =>
        u.oas.map((oa, j) => {
          const unidad = idUnidad.get(u.codigo);
          if (unidad === undefined) throw new Error(`seed: unit ${u.codigo} not stored`);
          return { codigo: oa.codigo, descripcion: oa.descripcion, fuente: oa.fuente, unidad, orden: j + 1 };
        }),
      ),
    );
    if (filasOas.length > 0) await tx.insert(oas).values(filasOas).onConflictDoNothing({ target: oas.codigo });
    await tx
      .insert(metodologias)
      .values(data.metodologias.map((nombre) => ({ nombre })))
      .onConflictDoNothing();
    await tx
      .insert(tiposMaterial)
      .values(data.tiposMaterial.map((nombre) => ({ nombre })))
      .onConflictDoNothing();
    await tx
      .insert(colegios)
      .values(data.colegios.map((nombre) => ({ nombre })))
      .onConflictDoNothing();
  });
}

const DEMO_ADMIN_EMAIL = 'admin@entredocentes.cl';

export interface AdminSeed {
  email: string;
  /** Set only when this call created the account with a generated password. */
  generatedPassword?: string;
  created: boolean;
}

/** On an empty database, creates the first admin: ADMIN_EMAIL/ADMIN_PASSWORD, or a demo admin. */
export async function seedAdmin(db: Db, env: { email?: string | undefined; password?: string | undefined }): Promise<AdminSeed> {
  const [row] = await db.select({ n: count() }).from(usuarios);
  const email = (env.email ?? DEMO_ADMIN_EMAIL).toLowerCase();
  if ((row?.n ?? 0) > 0) return { email, created: false };
  const generated = env.password ? undefined : `Demo-${randomBytes(6).toString('base64url')}9a`;
  await db.insert(usuarios).values({
    email,
    password_hash: await hashPassword(env.password ?? generated ?? ''),
    activo: true,
    primer_nombre: 'Administración',
    apellido_paterno: 'Red',
    rol: 'Administrador',
    groups: ['admin'],
  });
  return { email, created: true, ...(generated ? { generatedPassword: generated } : {}) };
}

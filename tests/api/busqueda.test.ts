/** Spanish, accent-insensitive text search (migration 0001) on PGlite and PostgreSQL alike. */
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, manuales } from '../../src/lib/server/db/schema.server.ts';
import { coincideTexto, terminos } from '../../src/lib/server/db/search.server.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
  const user = await t.createUser();
  const [area] = await t.db.select().from(areas).limit(1);
  const base = { autor: 'Ana Pérez', extension: 'pdf', archivo: 'x', id_area: area?.id ?? 0, id_usuario: user.id };
  await t.db.insert(manuales).values([
    { ...base, titulo: 'Didáctica de la Matemática', descripcion: 'Estrategias para enseñar fracciones en 4° básico' },
    { ...base, titulo: 'Aprendizaje Basado en Proyectos', descripcion: 'Guía para planificar un proyecto de Ciencias Naturales' },
    { ...base, titulo: 'Evaluación formativa', descripcion: 'Rúbricas y retroalimentación' },
  ]);
});
afterAll(() => t.close());

const buscar = async (q: string) =>
  (
    await t.db
      .select({ titulo: manuales.titulo })
      .from(manuales)
      .where(coincideTexto([manuales.titulo, manuales.descripcion], q))
      .orderBy(asc(manuales.id))
  ).map((r) => r.titulo);

describe('text search', () => {
  it('ignores accents and case', async () => {
    expect(await buscar('matematica')).toEqual(['Didáctica de la Matemática']);
    expect(await buscar('RUBRICAS')).toEqual(['Evaluación formativa']);
  });
  it('matches word forms and the last word as a prefix', async () => {
    expect(await buscar('fraccion')).toEqual(['Didáctica de la Matemática']);
    expect(await buscar('proyec')).toEqual(['Aprendizaje Basado en Proyectos']);
    expect(await buscar('guia ciencias')).toEqual(['Aprendizaje Basado en Proyectos']);
  });
  it('needs every word, and is safe with any input', async () => {
    expect(await buscar('fracciones rubricas')).toEqual([]);
    expect(await buscar("')); drop table manuales; -- & | ! :*")).toEqual([]);
    expect(coincideTexto([manuales.titulo, manuales.descripcion], '  !!  ')).toBeUndefined();
    expect(terminos('Ñandú  & Año')).toEqual(['nandu', 'ano']);
  });
});

/** GET lookups: curriculum (areas, niveles, unidades, oas), metodologias, tipos de material, colegios. */
import { Hono } from 'hono';
import { z } from 'zod';
import { cadena } from '../../validation/texto.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { createCatalogosService } from '../services/catalogos.server.ts';
import { type AppEnv, autenticado } from './env.server.ts';
import { query } from './input.server.ts';
import { id } from './schemas.server.ts';

const nivel = cadena({ error: 'Nivel no válido' }).trim().min(1, 'Nivel no válido').max(10, 'Nivel no válido');

export function curriculumRoutes(catalogos: ReturnType<typeof createCatalogosService>, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .use(autenticado(keys))
    .get('/areas', query(z.object({ nivel: nivel.optional() })), async (c) =>
      c.json(await catalogos.areas(c.req.valid('query').nivel), 200),
    )
    .get('/niveles', query(z.object({ area: id('Área no válida').optional() })), async (c) =>
      c.json(await catalogos.niveles(c.req.valid('query').area), 200),
    )
    .get('/unidades', query(z.object({ area: id('Área no válida'), nivel })), async (c) => {
      const q = c.req.valid('query');
      return c.json(await catalogos.unidades(q.area, q.nivel), 200);
    })
    .get('/oas', query(z.object({ unidad: id('Unidad no válida') })), async (c) =>
      c.json(await catalogos.oas(c.req.valid('query').unidad), 200),
    );
}

export function catalogosRoutes(catalogos: ReturnType<typeof createCatalogosService>, keys: TokenKeys) {
  // Mounted at /api beside other sections: guard each route, not the whole prefix.
  const auth = autenticado(keys);
  return new Hono<AppEnv>({ strict: false })
    .get('/metodologias', auth, async (c) => c.json(await catalogos.metodologias(), 200))
    .get('/bdocente/tipo', auth, async (c) => c.json(await catalogos.tiposMaterial(), 200))
    .get('/colegios', auth, async (c) => c.json(await catalogos.colegios(), 200));
}

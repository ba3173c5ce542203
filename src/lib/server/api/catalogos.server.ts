/** GET lookups: curriculum (areas, niveles, unidades, oas), metodologias, tipos de material, colegios. */
import { Hono } from 'hono';
import { z } from 'zod';
import { cadena } from '../../validation/texto.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { createCatalogosService } from '../services/catalogos.server.ts';
import { consulta, responder } from './contrato.server.ts';
import { type AppEnv, autenticado } from './env.server.ts';
import { query } from './input.server.ts';
import { id } from './schemas.server.ts';

const nivel = cadena({ error: 'Nivel no válido' }).trim().min(1, 'Nivel no válido').max(10, 'Nivel no válido');

export function curriculumRoutes(catalogos: ReturnType<typeof createCatalogosService>, keys: TokenKeys) {
  return new Hono<AppEnv>({ strict: false })
    .use(autenticado(keys))
    .get('/areas', query(consulta('GET /api/curriculum_escolar/areas/', z.object({ nivel: nivel.optional() }))), async (c) =>
      responder(c, 'GET /api/curriculum_escolar/areas/', 200, await catalogos.areas(c.req.valid('query').nivel)),
    )
    .get(
      '/niveles',
      query(consulta('GET /api/curriculum_escolar/niveles/', z.object({ area: id('Área no válida').optional() }))),
      async (c) => responder(c, 'GET /api/curriculum_escolar/niveles/', 200, await catalogos.niveles(c.req.valid('query').area)),
    )
    .get(
      '/unidades',
      query(consulta('GET /api/curriculum_escolar/unidades/', z.object({ area: id('Área no válida'), nivel }))),
      async (c) => {
        const q = c.req.valid('query');
        return responder(c, 'GET /api/curriculum_escolar/unidades/', 200, await catalogos.unidades(q.area, q.nivel));
      },
    )
    .get('/oas', query(consulta('GET /api/curriculum_escolar/oas/', z.object({ unidad: id('Unidad no válida') }))), async (c) =>
      responder(c, 'GET /api/curriculum_escolar/oas/', 200, await catalogos.oas(c.req.valid('query').unidad)),
    );
}

export function catalogosRoutes(catalogos: ReturnType<typeof createCatalogosService>, keys: TokenKeys) {
  // Mounted at /api beside other sections: guard each route, not the whole prefix.
  const auth = autenticado(keys);
  return new Hono<AppEnv>({ strict: false })
    .get('/metodologias', auth, async (c) => responder(c, 'GET /api/metodologias/', 200, await catalogos.metodologias()))
    .get('/bdocente/tipo', auth, async (c) => responder(c, 'GET /api/bdocente/tipo/', 200, await catalogos.tiposMaterial()))
    .get('/colegios', auth, async (c) => responder(c, 'GET /api/colegios/', 200, await catalogos.colegios()));
}

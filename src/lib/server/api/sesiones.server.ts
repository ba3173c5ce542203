/**
 * 'Mis sesiones' (issue 32): GET /api/usuarios/{id}/sesiones/, DELETE the same path (every
 * session but the one asking) and DELETE /api/usuarios/{id}/sesiones/{sid}/. The person
 * themself only; a closed session ends at once on every server (sesiones.server.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { describirAgente } from '../../agente.ts';
import { plural } from '../../format/index.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { ErrorDeDominio } from '../errores.server.ts';
import type { SesionesService } from '../services/sesiones.server.ts';
import { responder } from './contrato.server.ts';
import { type AppEnv, autenticado, mismoUsuario } from './env.server.ts';
import { params } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

const sesionParam = z.object({
  id: id(),
  sid: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Sesión no válida'),
});

export const SESION_NO_ENCONTRADA = 'La sesión no existe o ya estaba cerrada';
const cerradas = (n: number) => ({
  detail: n === 0 ? 'No había otras sesiones abiertas' : `Cerramos ${plural(n, 'sesión', 'sesiones')}`,
  cerradas: n,
});

export function sesionesRoutes(deps: { sesiones: SesionesService; keys: TokenKeys }) {
  const { sesiones, keys } = deps;
  return new Hono<AppEnv>({ strict: false })
    .get('/:id/sesiones', autenticado(keys), params(idParam), async (c) => {
      const { id: idUsuario } = c.req.valid('param');
      mismoUsuario(c, idUsuario);
      const abiertas = await sesiones.abiertas(idUsuario);
      return responder(c, 'GET /api/usuarios/{id}/sesiones/', 200, {
        sesiones: abiertas.map((s) => ({
          id: s.familia,
          ...describirAgente(s.agente),
          ip: s.ip,
          iniciada: s.iniciada.toISOString(),
          ultimo_uso: s.ultimo_uso.toISOString(),
          actual: s.familia === c.var.auth.sid,
        })),
      });
    })
    .delete('/:id/sesiones', autenticado(keys), params(idParam), async (c) => {
      const { id: idUsuario } = c.req.valid('param');
      mismoUsuario(c, idUsuario);
      const n = await sesiones.cerrar(idUsuario, { menos: c.var.auth.sid });
      return responder(c, 'DELETE /api/usuarios/{id}/sesiones/', 200, cerradas(n));
    })
    .delete('/:id/sesiones/:sid', autenticado(keys), params(sesionParam), async (c) => {
      const { id: idUsuario, sid } = c.req.valid('param');
      mismoUsuario(c, idUsuario);
      const n = await sesiones.cerrar(idUsuario, { familia: sid });
      if (n === 0) throw new ErrorDeDominio(404, SESION_NO_ENCONTRADA);
      return responder(c, 'DELETE /api/usuarios/{id}/sesiones/{sid}/', 200, cerradas(n));
    });
}

/**
 * Leaving the platform (issue 31, decision 0059): the person's POST/DELETE
 * /api/usuarios/{id}/eliminar-cuenta/, and the console's POST/DELETE
 * /api/admin/usuarios/{id}/eliminar/, GET /api/admin/solicitudes/ and its export.
 */
import { Hono } from 'hono';
import {
  ESTADOS_SOLICITUD,
  eliminarCuentaAdminSchema,
  eliminarCuentaSchema,
  exportarSolicitudesSchema,
  ORIGENES_SOLICITUD,
  TIPOS_SOLICITUD,
} from '../../validation/baja.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import { contentDisposition } from '../http/file-response.server.ts';
import type { BajaService } from '../services/baja.server.ts';
import { csvDe } from '../services/curriculo/filas.server.ts';
import { type AdminEnv, soloAdminConCookie, soloAdminOClave } from './acceso-admin.server.ts';
import { consulta, entrada, responder } from './contrato.server.ts';
import { type AppEnv, autenticado, mismoUsuario } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { idParam } from './schemas.server.ts';

export function bajaRoutes(deps: { baja: BajaService; keys: TokenKeys }) {
  const { baja } = deps;
  return new Hono<AppEnv>({ strict: false })
    .post(
      '/:id/eliminar-cuenta',
      autenticado(deps.keys),
      params(idParam),
      body(entrada('POST /api/usuarios/{id}/eliminar-cuenta/', eliminarCuentaSchema)),
      async (c) => {
        const { id } = c.req.valid('param');
        mismoUsuario(c, id);
        const programada = await baja.solicitar(id, c.req.valid('json'), c.var.auth.sid);
        return responder(c, 'POST /api/usuarios/{id}/eliminar-cuenta/', 202, programada);
      },
    )
    .delete('/:id/eliminar-cuenta', autenticado(deps.keys), params(idParam), async (c) => {
      const { id } = c.req.valid('param');
      mismoUsuario(c, id);
      await baja.cancelar(id);
      return responder(c, 'DELETE /api/usuarios/{id}/eliminar-cuenta/', 200, { detail: 'Cancelamos la eliminación de tu cuenta' });
    });
}

const COLUMNAS = ['n', 'fecha', 'tipo', 'origen', 'estado', 'titular', 'motivo', 'resuelta'] as const;

export function adminBajaRoutes(deps: { baja: BajaService; keys: TokenKeys; adminKey: string; now: () => Date }) {
  const { baja } = deps;
  const soloAdmin = soloAdminOClave(deps);
  return new Hono<AdminEnv>({ strict: false })
    .post(
      '/usuarios/:id/eliminar',
      soloAdmin,
      params(idParam),
      body(entrada('POST /api/admin/usuarios/{id}/eliminar/', eliminarCuentaAdminSchema)),
      async (c) => {
        const resultado = await baja.solicitarAdmin(c.var.adminActor, c.req.valid('param').id, c.req.valid('json'));
        return responder(c, 'POST /api/admin/usuarios/{id}/eliminar/', 202, resultado);
      },
    )
    .delete('/usuarios/:id/eliminar', soloAdmin, params(idParam), async (c) => {
      await baja.cancelarAdmin(c.var.adminActor, c.req.valid('param').id);
      return responder(c, 'DELETE /api/admin/usuarios/{id}/eliminar/', 200, { detail: 'Eliminación cancelada' });
    })
    .get('/solicitudes', soloAdmin, async (c) => responder(c, 'GET /api/admin/solicitudes/', 200, await baja.consola()))
    .get(
      '/solicitudes/exportar',
      soloAdminConCookie(deps),
      query(consulta('GET /api/admin/solicitudes/exportar/', exportarSolicitudesSchema)),
      async (c) => {
        const { formato } = c.req.valid('query');
        const registro = await baja.registro();
        const hoy = deps.now().toISOString().slice(0, 10);
        const cuerpo =
          formato === 'json'
            ? JSON.stringify(registro)
            : csvDe(
                COLUMNAS,
                registro.map((r) => ({
                  n: r.id,
                  fecha: r.fecha_creacion,
                  tipo: TIPOS_SOLICITUD[r.tipo] ?? r.tipo,
                  origen: ORIGENES_SOLICITUD[r.origen] ?? r.origen,
                  estado: ESTADOS_SOLICITUD[r.estado] ?? r.estado,
                  titular: r.titular,
                  motivo: r.motivo,
                  resuelta: r.fecha_resolucion,
                })),
              );
        return new Response(cuerpo, {
          headers: {
            'content-type': formato === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
            'content-disposition': contentDisposition('attachment', `registro-solicitudes-${hoy}.${formato}`),
            'cache-control': 'private, no-store',
          },
        });
      },
    );
}

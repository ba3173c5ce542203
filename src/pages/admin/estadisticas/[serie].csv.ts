/**
 * GET /admin/estadisticas/{serie}.csv (issue 16): one chart's numbers for a spreadsheet, with a
 * file name that says what and when. Admins only: anyone else gets 403 and 'No tienes permisos';
 * an unknown series is 404. The middleware has already required a session.
 */
import type { APIRoute } from 'astro';
import { esAdmin } from '../../../lib/permisos.ts';
import { getRuntime } from '../../../lib/server/runtime.server.ts';
import { usuarioDe } from '../../_componentes/paginas.ts';
import { SIN_PERMISOS } from '../_componentes/admin.ts';
import { aCsv, SERIES, type Serie, tablaDe } from '../_componentes/estadisticas.ts';

export const prerender = false;

const esSerie = (s: string | undefined): s is Serie => (SERIES as readonly string[]).includes(s ?? '');

const texto = (status: number, cuerpo: string) =>
  new Response(cuerpo, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export const GET: APIRoute = async ({ params, locals }) => {
  if (!esAdmin(usuarioDe(locals))) return texto(403, `${SIN_PERMISOS.titulo}. ${SIN_PERMISOS.texto}`);
  const serie = params.serie;
  if (!esSerie(serie)) return texto(404, 'No existe esa estadística.');
  const estadisticas = await getRuntime().api.services.adminOperaciones.estadisticas();
  const hoy = new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Santiago' });
  return new Response(aCsv(tablaDe(serie, estadisticas)), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="entre-docentes-${serie}-${hoy}.csv"`,
    },
  });
};

/**
 * /sitemap.xml (issue 34): /explorar/ and every item public now, each with its last change
 * (lastmod: the last edit, else the upload), read at request time so an item made private
 * leaves it at once.
 */
import type { APIRoute } from 'astro';
import { rutaPublica } from '../lib/explorar.ts';
import { getRuntime } from '../lib/server/runtime.server.ts';

export const prerender = false;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const GET: APIRoute = async () => {
  const rt = getRuntime();
  const base = rt.config.PUBLIC_URL;
  const entradas = await rt.api.services.publicos.mapa();
  const ultima = entradas.reduce<Date | null>((max, e) => (!max || e.fecha > max ? e.fecha : max), null);
  const url = (ruta: string, fecha: Date | null) =>
    `  <url><loc>${xml(new URL(ruta, base).toString())}</loc>${fecha ? `<lastmod>${fecha.toISOString()}</lastmod>` : ''}</url>`;
  const cuerpo = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    url('/explorar/', ultima),
    ...entradas.map((e) => url(rutaPublica(e.tipo, e.id, e.titulo), e.fecha)),
    '</urlset>',
    '',
  ].join('\n');
  return new Response(cuerpo, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
};

/**
 * /robots.txt (issue 34): crawlers may read the public pages (/explorar/, the privacy notice) and
 * nothing else; the sitemap lists the public items. Every other page also says noindex itself
 * (the X-Robots-Tag the middleware adds), since a disallowed page can still be listed by its link.
 */
import type { APIRoute } from 'astro';
import { getRuntime } from '../lib/server/runtime.server.ts';

export const prerender = false;

export const GET: APIRoute = () => {
  const base = getRuntime().config.PUBLIC_URL;
  const texto = [
    'User-agent: *',
    'Allow: /explorar/',
    'Allow: /privacidad',
    'Allow: /miniaturas/',
    'Disallow: /',
    '',
    `Sitemap: ${new URL('/sitemap.xml', base).toString()}`,
    '',
  ].join('\n');
  return new Response(texto, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};

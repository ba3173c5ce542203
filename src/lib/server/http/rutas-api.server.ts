/**
 * The paths the Hono API answers (the HTTP server hands them to it before Astro,
 * api-node.server.ts): no page and no built file lives under them, so
 * neither the static handler nor the page session runs there.
 */
export const API_PREFIXES = ['/api/', '/auth/', '/streaming/', '/miniaturas/'] as const;

export const esRutaApi = (pathname: string): boolean =>
  pathname === '/healthz' || pathname === '/healthz/detalle' || API_PREFIXES.some((p) => pathname.startsWith(p));

/**
 * Whether Astro's router can hand this raw API path to the API: it decodes the path and resolves
 * dot segments and backslashes first, so an encoded control character, `%2e%2e` or `%5c` would
 * otherwise send an API request to a page (a 404 page in HTML, or the pages' origin check). No API
 * route takes such a path, so the HTTP entry answers it with the API's JSON 404 instead.
 */
export function esRutaApiEnrutable(pathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return false;
  return esRutaApi(decoded) && !decoded.split('/').some((segment) => segment === '.' || segment === '..');
}

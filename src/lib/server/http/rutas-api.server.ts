/**
 * The paths the Hono API answers (the HTTP server hands them to it before Astro,
 * api-node.server.ts): no page and no built file lives under them, so
 * neither the static handler nor the page session runs there.
 */
export const API_PREFIXES = ['/api/', '/auth/', '/streaming/', '/miniaturas/'] as const;

export const esRutaApi = (pathname: string): boolean =>
  pathname === '/healthz' || pathname === '/healthz/detalle' || API_PREFIXES.some((p) => pathname.startsWith(p));

/** An API path, `/healthz/` or a prefix without its slash (`/api`): the app answers each. */
const deLaApi = (pathname: string): boolean =>
  esRutaApi(pathname) || pathname === '/healthz/' || API_PREFIXES.some((p) => pathname === p.slice(0, -1));

/**
 * Whether the HTTP server hands this path to the API: an API path as sent, or as Astro's router
 * read it (percent-decoded, `/healthz/`, a prefix without its slash). Astro's catch-all endpoints
 * (src/pages/api/[...path].ts and its siblings, removed by decision 0051) took those to the API,
 * so the HTTP server is now the one way in and still does.
 */
export function vaALaApi(pathname: string): boolean {
  if (deLaApi(pathname)) return true;
  try {
    return deLaApi(decodeURIComponent(pathname));
  } catch {
    return false;
  }
}

/**
 * Whether the API may be handed this raw path. Routers decode the path and resolve dot segments
 * and backslashes (Astro's did, and would send such an API request to a page: a 404 page in HTML,
 * or the pages' origin check), so an encoded control character, `%2e%2e` or `%5c` could reach
 * another route than the one it names. No API route takes such a path, so the HTTP entry answers
 * it with the API's JSON 404 instead.
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
  return deLaApi(decoded) && !decoded.split('/').some((segment) => segment === '.' || segment === '..');
}

/**
 * The paths the Hono API answers (Astro's catch-all endpoints hand them over): no page and no
 * built file lives under them, so neither the static handler nor the page session runs there.
 */
export const API_PREFIXES = ['/api/', '/auth/', '/streaming/', '/miniaturas/'] as const;

export const esRutaApi = (pathname: string): boolean => pathname === '/healthz' || API_PREFIXES.some((p) => pathname.startsWith(p));

/**
 * The bridge from Astro's catch-all endpoints to the Hono app. The server of `npm start`
 * (main.server.ts) hands API paths to the app before Astro (api-node.server.ts, decision 0040),
 * so these endpoints only answer if Astro's handler is ever given an API path directly.
 */
import type { APIContext } from 'astro';
import { getRuntime } from '../runtime.server.ts';

export async function handleApi(context: APIContext): Promise<Response> {
  // Cookie reads renew an expired session themselves (`autenticado` with `cookie: true`).
  // The socket's address; behind TRUST_PROXY proxies `clientAddress` reads X-Forwarded-For instead.
  const runtime = getRuntime();
  return runtime.api.app.fetch(context.request, { clientAddress: context.clientAddress, trustProxy: runtime.config.TRUST_PROXY });
}

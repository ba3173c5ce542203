/** The bridge from Astro's catch-all endpoints to the Hono app. */
import type { APIContext } from 'astro';
import { getRuntime } from '../runtime.server.ts';

export async function handleApi(context: APIContext): Promise<Response> {
  // Cookie reads renew an expired session themselves (`autenticado` with `cookie: true`).
  // The socket's address; behind TRUST_PROXY proxies `clientAddress` reads X-Forwarded-For instead.
  const runtime = getRuntime();
  return runtime.api.app.fetch(context.request, { clientAddress: context.clientAddress, trustProxy: runtime.config.TRUST_PROXY });
}

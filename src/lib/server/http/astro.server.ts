/** The bridge from Astro's catch-all endpoints to the Hono app. */
import type { APIContext } from 'astro';
import { getRuntime } from '../runtime.server.ts';

export function handleApi(context: APIContext): Promise<Response> {
  return Promise.resolve(getRuntime().api.app.fetch(context.request, { clientAddress: context.clientAddress }));
}

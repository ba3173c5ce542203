import { handleApi } from '../lib/server/http/astro.server.ts';

export const prerender = false;
export const ALL = handleApi;

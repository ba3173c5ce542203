/**
 * What the API answers when no route takes a request: 405 with an `Allow` header when the path
 * exists for other methods (OPTIONS gets 204 and the same header), else 404; both in the one
 * error shape with a Spanish detail.
 */
import type { Context, Env, Hono } from 'hono';
import { errorResponse } from './errors.server.ts';

const METODOS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** The methods some route answers on this path (middleware, which runs for any method, aside). */
export function metodosDe(app: Hono<Env>, path: string): string[] {
  const metodos: string[] = METODOS.filter((metodo) => app.router.match(metodo, path)[0].some(([[, ruta]]) => ruta.method !== 'ALL'));
  // Hono answers HEAD with the GET route.
  if (metodos.includes('GET')) metodos.splice(1, 0, 'HEAD');
  return metodos;
}

export function sinRuta<E extends Env>(app: Hono<E>) {
  return (c: Context<E>): Response => {
    const metodo = c.req.method.toUpperCase();
    const pathname = new URL(c.req.url).pathname;
    const permitidos = metodosDe(app as unknown as Hono<Env>, c.req.path);
    if (permitidos.length === 0) {
      return errorResponse(404, { detail: `No existe el recurso ${metodo} ${pathname}`, statusCode: 404 });
    }
    const allow = [...permitidos, 'OPTIONS'].join(', ');
    if (metodo === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
    return errorResponse(405, { detail: `El método ${metodo} no está permitido en ${pathname}`, statusCode: 405 }, { allow });
  };
}

import { describe, expect, it } from 'vitest';
import { esRutaApiEnrutable, vaALaApi } from '../../src/lib/server/http/rutas-api.server.ts';

describe('which paths the HTTP server hands to the API (its one way in, decision 0051)', () => {
  it('takes the API paths as sent', () => {
    for (const ruta of [
      '/api/capsulas/',
      '/auth/login/',
      '/streaming/1/master.m3u8',
      '/miniaturas/capsulas/1',
      '/healthz',
      '/healthz/detalle',
    ]) {
      expect(vaALaApi(ruta), ruta).toBe(true);
    }
  });

  it('takes what Astro’s catch-all endpoints took: a prefix without its slash, /healthz/ and encoded prefixes', () => {
    for (const ruta of ['/api', '/auth', '/streaming', '/miniaturas', '/healthz/', '/%61pi/capsulas/', '/api%2Fcapsulas/']) {
      expect(vaALaApi(ruta), ruta).toBe(true);
      expect(esRutaApiEnrutable(ruta), ruta).toBe(true);
    }
  });

  it('leaves pages and built files to Astro', () => {
    for (const ruta of ['/', '/capsulas/', '/apis/', '/ingresar/', '/healthzz', '/healthz/otra', '/_astro/app.js', '/%E0%A4%A']) {
      expect(vaALaApi(ruta), ruta).toBe(false);
    }
  });

  it('answers an API path that names another route once decoded with the API’s 404', () => {
    for (const ruta of ['/api/%2e%2e/ingresar/', '/api/capsulas/..%5c..%5cwindows/', '/api/x%0D%0A', '/api/%E0%A4%A']) {
      expect(vaALaApi(ruta), ruta).toBe(true);
      expect(esRutaApiEnrutable(ruta), ruta).toBe(false);
    }
  });
});

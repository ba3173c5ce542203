// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

// Server code runs natively on Node (type stripping); keep it out of the bundle so pages and the
// HTTP server share one instance of each module (one database handle, one job runner).
const serverCode = /\/src\/lib\/server\//;

export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  trailingSlash: 'ignore',
  security: { checkOrigin: false },
  vite: {
    build: {
      rollupOptions: {
        external: [serverCode],
        makeAbsoluteExternalsRelative: false,
      },
    },
  },
});

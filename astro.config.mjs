// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

// Server code runs natively on Node (type stripping); keep it out of the bundle so pages and the
// HTTP server share one instance of each module (one database handle, one job runner).
const serverCode = /\/src\/lib\/server\//;

export default defineConfig({
  output: 'static',
  // No global body cap: uploads have their own limits per kind (MAX_VIDEO_MB...) and every other
  // body is capped at 1 MB while it is read (src/lib/server/api/input.server.ts).
  adapter: node({ mode: 'middleware', bodySizeLimit: 0 }),
  integrations: [react()],
  trailingSlash: 'ignore',
  security: { checkOrigin: false },
  vite: {
    resolve: {
      // The capsule player needs plain HLS (muxed audio, no subtitles, DRM or CMCD): hls.js's
      // light build plays it and is a third smaller for teachers on mobile data (decision 0017).
      alias: { 'hls.js/dist/hls.mjs': 'hls.js/dist/hls.light.mjs' },
    },
    build: {
      rollupOptions: {
        external: [serverCode],
        makeAbsoluteExternalsRelative: false,
      },
    },
  },
});

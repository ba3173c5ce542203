// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { CSP_DIRECTIVES } from './src/lib/server/http/headers.server.ts';

// Server code runs natively on Node (type stripping); keep it out of the bundle so pages and the
// HTTP server share one instance of each module (one database handle, one job runner).
const serverCode = /\/src\/lib\/server\//;

// Astro writes `<style>astro-island,…{display:contents}</style>` in the body, before a page's
// first island, where HTML allows no <style> (html-validate fails the page; withastro/astro#10308).
// src/styles/app.css carries the same rule in the page's stylesheet, so the inline copy goes. A
// new Astro that writes it differently stops the build here instead of shipping it again.
const islandStyleInStylesheet = {
  name: 'island-style-in-stylesheet',
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (!/[\\/]astro[\\/]dist[\\/]runtime[\\/]server[\\/]scripts\.js$/.test(id)) return;
    // In the runtime's source, a template literal that starts with the inline <style>.
    const inline = /`<style>\$\{ISLAND_STYLES\}<\/style>/;
    if (!inline.test(code)) throw new Error(`${id}: Astro no longer writes the island style as expected`);
    return code.replace(inline, '`');
  },
};

// Astro hashes a page's inline styles and scripts for its Content-Security-Policy on every render
// (SHA-256 of tens of kB of CSS through WebCrypto: 6 % of a signed-in page's time, decision 0040).
// They are the build's own, so each digest is computed once and kept (a bounded map: a server
// island's content, if one is ever used, is hashed too). A new Astro that writes the function
// differently stops the build here.
const cspDigestsOnce = {
  name: 'csp-digests-once',
  /** @param {string} code @param {string} id */
  transform(code, id) {
    if (!/[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/.test(id)) return;
    const original = 'async function generateCspDigest(data, algorithm) {';
    if (!code.includes(original)) throw new Error(`${id}: Astro no longer writes generateCspDigest as expected`);
    const memo = [
      // By algorithm, then by the text itself: the same string each render, whose hash V8 keeps.
      'const cspDigests = new Map();',
      'function generateCspDigest(data, algorithm) {',
      '  let digests = cspDigests.get(algorithm);',
      '  if (!digests) cspDigests.set(algorithm, (digests = new Map()));',
      '  let digest = digests.get(data);',
      '  if (digest) return digest;',
      '  if (digests.size >= 500) digests.clear();',
      '  digest = computeCspDigest(data, algorithm);',
      '  digests.set(data, digest);',
      '  digest.catch(() => digests.delete(data));',
      '  return digest;',
      '}',
      'async function computeCspDigest(data, algorithm) {',
    ].join('\n');
    return code.replace(original, memo);
  },
};

// `client:reproduccion`: hydrate once the capsule player shows its first frame (see the entrypoint).
/** @type {import('astro').AstroIntegration} */
const hidratarTrasReproduccion = {
  name: 'directiva-reproduccion',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'reproduccion', entrypoint: './src/islands/capsulas/directiva-reproduccion.ts' });
      // `client:intencion`: hydrate when the person reaches for the island (src/islands/moderacion).
      addClientDirective({ name: 'intencion', entrypoint: './src/islands/moderacion/directiva-intencion.ts' });
    },
  },
};

export default defineConfig({
  output: 'static',
  // No global body cap: uploads have their own limits per kind (MAX_VIDEO_MB...) and every other
  // body is capped at 1 MB while it is read (src/lib/server/api/input.server.ts). staticHeaders:
  // each prerendered page's policy goes to dist/_headers.json and out as a real header from
  // src/lib/server/http/static.server.ts, not as a <meta>, which cannot say frame-ancestors.
  adapter: node({ mode: 'middleware', bodySizeLimit: 0, staticHeaders: true }),
  // No Astro sessions: sign-in lives in signed tokens and the database. Left on, the adapter would
  // keep a session store on each server's disk (node_modules/.astro), state one server of several
  // would not share (issue 19, decision 0042).
  session: false,
  integrations: [react(), hidratarTrasReproduccion],
  trailingSlash: 'ignore',
  // No Markdown pages here; Shiki's highlighting would need inline styles the policy refuses.
  markdown: { syntaxHighlight: false },
  security: {
    checkOrigin: false,
    // Scripts and <style> elements: 'self' plus the hashes of what Astro inlines, nothing else.
    // Style attributes stay allowed: per-author colours and React's server-rendered styles
    // (decision 0022).
    csp: {
      directives: [...CSP_DIRECTIVES],
      styleDirective: { resources: [{ resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  vite: {
    plugins: [islandStyleInStylesheet, cspDigestsOnce],
    resolve: {
      // The capsule player needs plain HLS (muxed audio, no subtitles, DRM or CMCD): hls.js's
      // light build plays it and is a third smaller for teachers on mobile data (decision 0017).
      alias: { 'hls.js/dist/hls.mjs': 'hls.js/dist/hls.light.mjs' },
    },
    build: {
      rollupOptions: {
        external: [serverCode],
        makeAbsoluteExternalsRelative: false,
        // React, its JSX runtime and React DOM load together on every page with an island: one
        // chunk instead of three is 0.6 kB less gzip on each such page and two fewer requests on
        // an old school link (decision 0061).
        output: {
          codeSplitting: {
            groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
          },
        },
      },
    },
  },
});

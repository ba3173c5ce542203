/**
 * The security headers, in one place (decision 0022). Astro writes each page's
 * Content-Security-Policy from CSP_DIRECTIVES plus the hashes of the scripts and styles it built
 * (astro.config.mjs); the static handler sends the one Astro wrote for each prerendered page, the
 * middleware the one Astro rendered with the page. The other page headers and the API's are here.
 */
import type { APIContext } from 'astro';

/** Every directive but script-src and style-src, which Astro writes with its hashes. */
export const CSP_DIRECTIVES = [
  "default-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data: blob:",
  // The capsule player feeds the <video> from a MediaSource (blob:) and hls.js may run a worker.
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
] as const;

/**
 * For an HTML page Astro did not write a policy for (a build without `_headers.json`): scripts
 * and styles from this origin only, so a page may lose an inline script but never run one injected.
 */
export const CSP_FALLBACK = [...CSP_DIRECTIVES, "script-src 'self'", "style-src 'self'"].join('; ');

/** Features no page uses; anything else (fullscreen for the player) keeps the browser's default. */
const PERMISSIONS_POLICY = ['accelerometer', 'camera', 'geolocation', 'gyroscope', 'magnetometer', 'microphone', 'payment', 'usb']
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Sent with every HTML page, prerendered or rendered on request, beside its policy. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'permissions-policy': PERMISSIONS_POLICY,
  // frame-ancestors for browsers that predate CSP level 2.
  'x-frame-options': 'DENY',
};

/**
 * Strict-Transport-Security for every answer when the site's public address is https (issue 32):
 * a year, subdomains included, so a browser that came once never asks over plain HTTP again. Not
 * sent on an http address (a school's LAN server), where it would lock browsers out.
 */
export const hstsPara = (publicUrl: string): string | null =>
  publicUrl.startsWith('https:') ? 'max-age=31536000; includeSubDomains' : null;

/** Sent with every API response; JSON also gets `Cache-Control: no-store` unless a route chose. */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
};
export const API_CACHE_CONTROL = 'private, no-store';

/**
 * The capsule player's web components (media-chrome, hls-video-element) style their shadow roots
 * with <style> elements written at run time, which no build-time hash covers: a page showing the
 * player allows inline <style> elements (scripts stay strict). Call it from the page's frontmatter,
 * before the policy is sent with the first bytes.
 */
export function allowPlayerStyles(csp: APIContext['csp']): void {
  // Without a policy (CSP off in the config) there is nothing to allow.
  csp?.insertStyleResource({ resource: "'self'", kind: 'element' });
  csp?.insertStyleResource({ resource: "'unsafe-inline'", kind: 'element' });
}

/**
 * A page whose scripts or media fetch files that may be answered by a redirect to the bucket or
 * its CDN (the capsule player: hls.js fetches segments, Safari's native HLS loads them as media)
 * allows that origin, given by file-response.server.ts `origenDirecto`; nothing when files go
 * through this server. Call it from the page's frontmatter, like allowPlayerStyles.
 */
export function allowStorageOrigin(csp: APIContext['csp'], origen: string | null): void {
  if (!origen) return;
  csp?.insertDirective(`connect-src ${origen}`);
  csp?.insertDirective(`media-src ${origen}`);
}

/** Adds the page headers, and the fallback policy when the response has none. */
export function withPageHeaders(headers: Headers): Headers {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) headers.set(name, value);
  if (!headers.has('content-security-policy')) headers.set('content-security-policy', CSP_FALLBACK);
  return headers;
}

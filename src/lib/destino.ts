/**
 * Where a `siguiente` parameter may send a person after signing in or accepting the privacy notice
 * (issue 32's open redirect): a page of this site, read as the browser will read it. The browser
 * drops tabs and newlines from a URL and takes '\' for '/', so '/\t/otro.sitio' is '//otro.sitio',
 * another site: the text is resolved against our origin and kept only when it stays there. API and
 * sign-in endpoints are not pages to land on. Anything else goes home.
 */
export function destinoSeguro(siguiente: string | null | undefined, origen: string): string {
  if (!siguiente) return '/';
  let url: URL;
  try {
    url = new URL(siguiente, origen);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origen).origin || /^\/(api|auth)\//.test(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

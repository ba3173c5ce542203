/**
 * The names of the session cookies, shared by the server that sets them and the islands that read
 * the two a script may see.
 */

/** The access token (15 minutes), sent by the islands as `Authorization: Bearer`. */
export const ACCESS_COOKIE = 'ed_access';
/** The refresh token: httpOnly, so no script can tell whether it is there. */
export const REFRESH_COOKIE = 'ed_refresh';
/**
 * A marker that lives and dies with the refresh cookie and holds nothing secret ('1'): the
 * islands renew a session only when it is present, so a visitor who never signed in (or whose
 * session ended) makes no renewal that cannot succeed.
 */
export const SESSION_MARKER_COOKIE = 'ed_sesion';

/**
 * Random single-use tokens (stored as SHA-256 hashes) and short-lived signed access tokens
 * (JWT, HS256). Signing and checking take the clock as an argument, like every time rule here.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_FAMILY_SECONDS = 30 * 24 * 60 * 60;
export const ACTIVATION_SECONDS = 7 * 24 * 60 * 60;
export const RESET_SECONDS = 60 * 60;

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AccessClaims {
  sub: number;
  groups: string[];
  /** The session (refresh-token family) the token was issued for. */
  sid: string;
}

/** What signing and checking a token's signature and expiry need. */
export interface SigningKeys {
  secret: string;
  now: () => Date;
}

/** The live state of sessions: the claims of a token whose session still holds, or null. */
export interface SessionCheck {
  vigente(claims: AccessClaims): Promise<AccessClaims | null>;
}

/** What every guard needs: the signature keys and the session state (see `verificarAcceso`). */
export interface TokenKeys extends SigningKeys {
  sesiones: SessionCheck;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = encode({ alg: 'HS256', typ: 'JWT' });
const mac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();
const seconds = (keys: SigningKeys) => Math.floor(keys.now().getTime() / 1000);

export function signAccessToken(claims: AccessClaims, keys: SigningKeys): string {
  const iat = seconds(keys);
  const payload = encode({
    sub: String(claims.sub),
    groups: claims.groups,
    sid: claims.sid,
    typ: 'access',
    iat,
    exp: iat + ACCESS_TOKEN_SECONDS,
  });
  const data = `${HEADER}.${payload}`;
  return `${data}.${mac(keys.secret, data).toString('base64url')}`;
}

/** Most tokens whose checked claims are kept; beyond it the oldest goes first. */
const VERIFIED_MAX = 10_000;

/**
 * Tokens already checked, per signing key: the same token comes with every request of its
 * session for 15 minutes, and checking it again (an HMAC, base64 and JSON) was a tenth of a list
 * call's time (decision 0040). Only correctly signed tokens get here, and each is still refused
 * once it expires, by the same clock; whether its session holds is asked every time (`verificarAcceso`).
 */
const verified = new WeakMap<SigningKeys, Map<string, { claims: AccessClaims; exp: number }>>();

/**
 * The claims of a correctly signed, unexpired access token that names its session, or null.
 * Signature and expiry only: guards use `verificarAcceso`, which also asks whether the session holds.
 */
export function verifyAccessToken(token: string, keys: SigningKeys): AccessClaims | null {
  let known = verified.get(keys);
  const hit = known?.get(token);
  if (hit) {
    if (hit.exp > seconds(keys)) return hit.claims;
    known?.delete(token);
    return null;
  }
  const checked = checkAccessToken(token, keys);
  if (!checked) return null;
  if (!known) {
    known = new Map();
    verified.set(keys, known);
  }
  if (known.size >= VERIFIED_MAX) {
    const oldest = known.keys().next();
    if (!oldest.done) known.delete(oldest.value);
  }
  known.set(token, checked);
  return checked.claims;
}

function checkAccessToken(token: string, keys: SigningKeys): { claims: AccessClaims; exp: number } | null {
  const [header, payload, signature, extra] = token.split('.');
  if (header !== HEADER || !payload || !signature || extra !== undefined) return null;
  const expected = mac(keys.secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { sub, groups, sid, typ, exp } = claims as Record<string, unknown>;
  const id = Number(sub);
  if (typ !== 'access' || !Number.isSafeInteger(id) || typeof exp !== 'number' || exp <= seconds(keys)) return null;
  // Tokens issued before sessions were named carry no `sid`: refused (the refresh cookie renews them).
  if (typeof sid !== 'string' || sid === '') return null;
  const checked = { sub: id, groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [], sid };
  return { claims: checked, exp };
}

/** The claims of an access token that is valid and whose session still holds (not signed out or revoked). */
export async function verificarAcceso(token: string | undefined, keys: TokenKeys): Promise<AccessClaims | null> {
  const claims = token ? verifyAccessToken(token, keys) : null;
  return claims ? keys.sesiones.vigente(claims) : null;
}

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
}

export interface TokenKeys {
  secret: string;
  now: () => Date;
}

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const HEADER = encode({ alg: 'HS256', typ: 'JWT' });
const mac = (secret: string, data: string) => createHmac('sha256', secret).update(data).digest();
const seconds = (keys: TokenKeys) => Math.floor(keys.now().getTime() / 1000);

export function signAccessToken(claims: AccessClaims, keys: TokenKeys): string {
  const iat = seconds(keys);
  const payload = encode({ sub: String(claims.sub), groups: claims.groups, typ: 'access', iat, exp: iat + ACCESS_TOKEN_SECONDS });
  const data = `${HEADER}.${payload}`;
  return `${data}.${mac(keys.secret, data).toString('base64url')}`;
}

/** The claims of a valid, unexpired access token, or null. */
export function verifyAccessToken(token: string, keys: TokenKeys): AccessClaims | null {
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
  const { sub, groups, typ, exp } = claims as Record<string, unknown>;
  const id = Number(sub);
  if (typ !== 'access' || !Number.isSafeInteger(id) || typeof exp !== 'number' || exp <= seconds(keys)) return null;
  return { sub: id, groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [] };
}

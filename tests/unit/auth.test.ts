import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '../../src/lib/server/auth/password.server.ts';
import { hashToken, randomToken, signAccessToken, verifyAccessToken } from '../../src/lib/server/auth/tokens.server.ts';

describe('passwords', () => {
  it('hash with argon2id at OWASP parameters and verify', async () => {
    const hash = await hashPassword('Clave1234');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword('Clave1234', hash)).toBe(true);
    expect(await verifyPassword('Clave1235', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });
  it('salts every hash and refuses malformed stored values', async () => {
    expect(await hashPassword('x')).not.toBe(await hashPassword('x'));
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(needsRehash('$argon2id$v=19$m=4096,t=1,p=1$c2FsdHNhbHQ$aGFzaA')).toBe(true);
  });
});

describe('tokens', () => {
  it('random tokens are 256-bit and stored as SHA-256', () => {
    const token = randomToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(randomToken()).not.toBe(token);
  });

  it('access tokens carry the user and groups, expire after 15 minutes and resist tampering', () => {
    let now = new Date('2026-03-01T12:00:00Z');
    const keys = { secret: 's'.repeat(40), now: () => now };
    const token = signAccessToken({ sub: 7, groups: ['admin'] }, keys);
    expect(verifyAccessToken(token, keys)).toEqual({ sub: 7, groups: ['admin'] });
    expect(verifyAccessToken(token, { ...keys, secret: 'x'.repeat(40) })).toBeNull();
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: '1', groups: ['admin'], typ: 'access', exp: 9e9 })).toString('base64url');
    expect(verifyAccessToken(`${h}.${forged}.${s}`, keys)).toBeNull();
    expect(verifyAccessToken(`${h}.${p}`, keys)).toBeNull();
    now = new Date(now.getTime() + 14 * 60_000);
    expect(verifyAccessToken(token, keys)).not.toBeNull();
    now = new Date(now.getTime() + 60_001);
    expect(verifyAccessToken(token, keys)).toBeNull();
  });
});

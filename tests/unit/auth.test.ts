import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forwardedAddress } from '../../src/lib/server/api/env.server.ts';
import { HASHES_A_LA_VEZ, hashesEnCurso, hashPassword, needsRehash, verifyPassword } from '../../src/lib/server/auth/password.server.ts';
import { backoffWait, fixedWait } from '../../src/lib/server/auth/rate-limit.server.ts';
import { hashToken, randomToken, signAccessToken, verifyAccessToken } from '../../src/lib/server/auth/tokens.server.ts';
import { loadConfig } from '../../src/lib/server/config.server.ts';

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
  it('runs at most one hash per core at once, the rest in turn, and a failed one frees its turn', async () => {
    expect(HASHES_A_LA_VEZ).toBeGreaterThanOrEqual(1);
    const claves = Array.from({ length: HASHES_A_LA_VEZ + 3 }, (_, i) => `Clave${i}`);
    const hashes = Promise.all(claves.map((c) => hashPassword(c)));
    expect(hashesEnCurso()).toBe(HASHES_A_LA_VEZ);
    const hechos = await hashes;
    expect(hashesEnCurso()).toBe(0);
    expect(await Promise.all(hechos.map((h, i) => verifyPassword(`Clave${i}`, h)))).toEqual(claves.map(() => true));
    // Parameters argon2 refuses (a stored value no release wrote): the hash fails, its turn is freed.
    await expect(verifyPassword('x', '$argon2id$v=19$m=1,t=2,p=1$c2FsdHNhbHQ$aGFzaA')).rejects.toThrow();
    expect(hashesEnCurso()).toBe(0);
    expect(await verifyPassword('Clave0', hechos[0] as string)).toBe(true);
  });
});

describe('tokens', () => {
  it('random tokens are 256-bit and stored as SHA-256', () => {
    const token = randomToken();
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(randomToken()).not.toBe(token);
  });

  it('access tokens carry the user, groups and session, expire after 15 minutes and resist tampering', () => {
    let now = new Date('2026-03-01T12:00:00Z');
    const keys = { secret: 's'.repeat(40), now: () => now };
    const token = signAccessToken({ sub: 7, groups: ['admin'], sid: 'familia-1' }, keys);
    expect(verifyAccessToken(token, keys)).toEqual({ sub: 7, groups: ['admin'], sid: 'familia-1' });
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

  it('refuses a correctly signed token without a session (issued before sessions were named)', () => {
    const keys = { secret: 's'.repeat(40), now: () => new Date('2026-03-01T12:00:00Z') };
    const [h] = signAccessToken({ sub: 7, groups: [], sid: 'x' }, keys).split('.');
    const payload = Buffer.from(JSON.stringify({ sub: '7', groups: [], typ: 'access', exp: 9e9 })).toString('base64url');
    const data = `${h}.${payload}`;
    const signature = createHmac('sha256', keys.secret).update(data).digest('base64url');
    expect(verifyAccessToken(`${data}.${signature}`, keys)).toBeNull();
  });
});

describe('throttling arithmetic', () => {
  const at = new Date('2026-03-01T12:00:00Z');
  const ago = (s: number) => new Date(at.getTime() - s * 1000);

  it('fixed windows refuse at the limit until the window ends', () => {
    const limit = { max: 3, windowSeconds: 900 };
    expect(fixedWait(undefined, limit, at)).toBe(0);
    expect(fixedWait({ ventana_inicio: ago(100), intentos: 2 }, limit, at)).toBe(0);
    expect(fixedWait({ ventana_inicio: ago(100), intentos: 3 }, limit, at)).toBe(800);
    expect(fixedWait({ ventana_inicio: ago(900), intentos: 9 }, limit, at)).toBe(0);
  });

  it('growing delays double after the free failures, up to the cap, and lapse after a quiet window', () => {
    const backoff = { free: 5, maxSeconds: 60, windowSeconds: 900 };
    const waits = [4, 5, 6, 7, 8, 9, 10, 30].map((n) => backoffWait({ ventana_inicio: at, intentos: n }, backoff, at));
    expect(waits).toEqual([0, 2, 4, 8, 16, 32, 60, 60]);
    expect(backoffWait({ ventana_inicio: ago(3), intentos: 6 }, backoff, at)).toBe(1);
    expect(backoffWait({ ventana_inicio: ago(4), intentos: 6 }, backoff, at)).toBe(0);
    expect(backoffWait({ ventana_inicio: ago(900), intentos: 30 }, backoff, at)).toBe(0);
  });
});

describe('client address behind proxies', () => {
  it('takes the entry as many places from the right as there are trusted proxies', () => {
    expect(forwardedAddress('198.51.100.9', 1)).toBe('198.51.100.9');
    expect(forwardedAddress('1.1.1.1, 198.51.100.9', 1)).toBe('198.51.100.9');
    expect(forwardedAddress('1.1.1.1, 198.51.100.9, 10.0.0.2', 2)).toBe('198.51.100.9');
    expect(forwardedAddress('10.0.0.2', 2)).toBeUndefined();
    expect(forwardedAddress(undefined, 1)).toBeUndefined();
    expect(forwardedAddress('1.1.1.1, ', 1)).toBeUndefined();
  });

  it('TRUST_PROXY is off by default; true is one proxy; a wrong value stops the start', () => {
    const trust = (TRUST_PROXY?: string) => loadConfig(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).TRUST_PROXY;
    expect([trust(), trust('false'), trust('true'), trust('2'), trust('')]).toEqual([0, 0, 1, 2, 0]);
    expect(() => trust('sí')).toThrow(/TRUST_PROXY/);
  });
});

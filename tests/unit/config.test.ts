import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/lib/server/config.server.ts';

describe('configuration', () => {
  it('builds links on the port the server listens on when PUBLIC_URL is not set', () => {
    expect(loadConfig({ PORT: '4600' }).PUBLIC_URL).toBe('http://localhost:4600');
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:4321');
    expect(loadConfig({ PORT: '4600', PUBLIC_URL: 'https://docentes.example.cl' }).PUBLIC_URL).toBe('https://docentes.example.cl');
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'no es una url' })).toThrow(/PUBLIC_URL/);
  });
});

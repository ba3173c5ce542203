import { describe, expect, it } from 'vitest';
import { describirAgente } from '../../src/lib/agente';

describe('describirAgente (Mis sesiones, issue 32)', () => {
  it('names the browser and system of the User-Agents schools use', () => {
    const casos: [string, string, string][] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome 131',
        'Windows',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
        'Edge 131',
        'Windows',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128', 'Linux'],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari 17',
        'iPhone',
      ],
      [
        'Mozilla/5.0 (Linux; Android 13; SM-A146M) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
        'Samsung Internet 25',
        'Android',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
        'Safari 17',
        'macOS',
      ],
      [
        'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
        'Chrome 120',
        'ChromeOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0',
        'Opera 106',
        'Windows',
      ],
    ];
    for (const [agente, navegador, sistema] of casos) expect(describirAgente(agente), agente).toEqual({ navegador, sistema });
  });

  it('says what it does not know', () => {
    expect(describirAgente(null)).toEqual({ navegador: 'Navegador desconocido', sistema: 'sistema desconocido' });
    expect(describirAgente('curl/8.5.0')).toEqual({ navegador: 'Navegador desconocido', sistema: 'sistema desconocido' });
  });
});

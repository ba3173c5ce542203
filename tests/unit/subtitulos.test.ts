import { describe, expect, it } from 'vitest';
import { revisarSubtitulo } from '../../src/islands/capsulas/revision-subtitulos.ts';
import { leerSubtitulo, SubtituloInvalido } from '../../src/lib/server/media/subtitulos.server.ts';
import { LINEA_TIEMPOS, tieneTiempos } from '../../src/lib/validation/subtitulos.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const cp1252 = (s: string) => Uint8Array.from(Array.from(s, (c) => ({ '€': 0x80, '’': 0x92, '…': 0x85 })[c] ?? c.charCodeAt(0)));
const utf16le = (s: string) => Uint8Array.from([0xff, 0xfe, ...Buffer.from(s, 'utf16le')]);

/** The reason a file is refused (and that it is refused as a caption file). */
function motivo(bytes: Uint8Array, nombre?: string): string {
  try {
    leerSubtitulo(bytes, nombre);
  } catch (error) {
    expect(error).toBeInstanceOf(SubtituloInvalido);
    return (error as SubtituloInvalido).motivo;
  }
  throw new Error('the file was accepted');
}

describe('WebVTT', () => {
  it('reads cues with identifiers, settings, hours and mm:ss times, and ignores NOTE, STYLE and REGION blocks', () => {
    const r = leerSubtitulo(
      utf8(
        [
          'WEBVTT - Clase de fracciones',
          'Kind: captions',
          'Language: es',
          '',
          'STYLE',
          '::cue { color: red; background: url(https://evil.example/x) }',
          '',
          'REGION',
          'id:fred width:40%',
          '',
          'NOTE esto es un comentario',
          'de dos líneas',
          '',
          'intro',
          '00:01.000 --> 00:04.500 align:start position:10% region:fred line:0',
          'Hoy veremos <b>fracciones</b>.',
          '',
          '2',
          '01:00:02.250 --> 01:00:05.000',
          '<v Profesora Ana>¿Qué es <i>un medio</i>?',
          'Pensemos &amp; dibujemos.',
          '',
        ].join('\n'),
      ),
    );
    expect(r.formato).toBe('vtt');
    expect(r.codificacion).toBe('utf-8');
    expect(r.lineas).toEqual([
      { inicio: 1, fin: 4.5, texto: 'Hoy veremos fracciones.' },
      { inicio: 3602.25, fin: 3605, texto: '¿Qué es un medio? Pensemos & dibujemos.' },
    ]);
    expect(r.texto).toBe('Hoy veremos fracciones.\n¿Qué es un medio? Pensemos & dibujemos.');
    expect(r.vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:01.000 --> 00:00:04.500 align:start position:10% line:0',
        'Hoy veremos <b>fracciones</b>.',
        '',
        '01:00:02.250 --> 01:00:05.000',
        '<v Profesora Ana>¿Qué es <i>un medio</i>?',
        'Pensemos &amp; dibujemos.',
        '',
      ].join('\n'),
    );
    expect(r.vtt).not.toMatch(/STYLE|REGION|NOTE|evil|intro/);
  });

  it('takes a BOM, CRLF or CR line ends, a cue right under the header, and class and lang tags', () => {
    const r = leerSubtitulo(
      utf8(
        '\uFEFFWEBVTT\r\n00:00:00.000 --> 00:00:02.000\r\n<c.amarillo.grande>Hola</c> <lang en>world</lang>\r\n\r\n00:00:02.000 --> 00:00:03.000\rChao\r',
      ),
    );
    expect(r.lineas.map((l) => l.texto)).toEqual(['Hola world', 'Chao']);
    expect(r.vtt).toContain('<c.amarillo.grande>Hola</c> <lang en>world</lang>');
    expect(r.vtt).not.toContain('\r');
  });

  it('sorts cues given out of order, and keeps overlapping ones', () => {
    const r = leerSubtitulo(
      utf8(
        'WEBVTT\n\n00:00:10.000 --> 00:00:12.000\nTercera\n\n00:00:01.000 --> 00:00:05.000\nPrimera\n\n00:00:03.000 --> 00:00:04.000\nSegunda\n',
      ),
    );
    expect(r.lineas.map((l) => [l.inicio, l.texto])).toEqual([
      [1, 'Primera'],
      [3, 'Segunda'],
      [10, 'Tercera'],
    ]);
  });

  it('drops cues whose text is only markup, and refuses a file with nothing to read', () => {
    const r = leerSubtitulo(utf8('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i></i>\n\n00:00:03.000 --> 00:00:04.000\nTexto\n'));
    expect(r.lineas).toEqual([{ inicio: 3, fin: 4, texto: 'Texto' }]);
    expect(motivo(utf8('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<b> </b>\n'))).toBe('Los subtítulos del archivo no tienen texto.');
  });
});

describe('SRT', () => {
  const srt = [
    '1',
    '00:00:01,000 --> 00:00:03,500',
    'La <font color="#ffff00">fracción</font> es',
    'una parte del todo.',
    '',
    '2',
    '00:00:04,000 --> 00:00:06,000 X1:100 X2:600 Y1:50 Y2:80',
    '{\\an8}Arriba: ½ &lt; 1',
    '',
  ];

  it('converts numbered blocks with comma times to WebVTT, dropping font tags and ASS codes', () => {
    const r = leerSubtitulo(utf8(srt.join('\r\n')), 'clase.srt');
    expect(r.formato).toBe('srt');
    expect(r.lineas).toEqual([
      { inicio: 1, fin: 3.5, texto: 'La fracción es una parte del todo.' },
      { inicio: 4, fin: 6, texto: 'Arriba: ½ < 1' },
    ]);
    expect(r.vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:01.000 --> 00:00:03.500',
        'La fracción es',
        'una parte del todo.',
        '',
        '00:00:04.000 --> 00:00:06.000',
        'Arriba: ½ &lt; 1',
        '',
      ].join('\n'),
    );
  });

  it('reads Windows-1252 and UTF-16 files as the text they hold', () => {
    const texto = '1\r\n00:00:01,000 --> 00:00:02,000\r\nÑandú, ¿fracción? Sí… cuesta 5 €\r\n';
    const latin = leerSubtitulo(cp1252(texto));
    expect(latin.codificacion).toBe('windows-1252');
    expect(latin.lineas[0]?.texto).toBe('Ñandú, ¿fracción? Sí… cuesta 5 €');
    const unicode = leerSubtitulo(utf16le(texto));
    expect(unicode.codificacion).toBe('utf-16');
    expect(unicode.lineas[0]?.texto).toBe('Ñandú, ¿fracción? Sí… cuesta 5 €');
  });

  it('survives lost blank lines between cues, a blank line inside a cue, no numbers and dotted times', () => {
    const r = leerSubtitulo(
      utf8(
        [
          '1',
          '00:00:01,000 --> 00:00:02,000',
          'Uno',
          '2',
          '00:00:02,000 --> 00:00:03,000',
          'Dos',
          '',
          'y algo más',
          '',
          '00:00:03.000 --> 00:00:04.000',
          'Tres',
          '  ',
          '4',
          '0:00:04,5 --> 0:00:05,75',
          'Cuatro',
        ].join('\n'),
      ),
    );
    expect(r.lineas).toEqual([
      { inicio: 1, fin: 2, texto: 'Uno' },
      { inicio: 2, fin: 3, texto: 'Dos y algo más' },
      { inicio: 3, fin: 4, texto: 'Tres' },
      { inicio: 4.5, fin: 5.75, texto: 'Cuatro' },
    ]);
  });

  it('decodes entities for the text and keeps them escaped in the WebVTT', () => {
    const r = leerSubtitulo(utf8('1\n00:00:01,000 --> 00:00:02,000\nPe&ntilde;a &#191;s&iacute;? &#x263A; &bogus; &#0; 3 < 5 > 2\n'));
    expect(r.lineas[0]?.texto).toBe('Peña ¿sí? ☺ &bogus; 3 < 5 > 2');
    expect(r.vtt).toContain('Peña ¿sí? ☺ &amp;bogus; 3 &lt; 5 &gt; 2');
  });
});

describe('hostile files: nothing unsafe reaches the WebVTT served', () => {
  it('turns markup that is not WebVTT into text or drops it', () => {
    const r = leerSubtitulo(
      utf8(
        [
          'WEBVTT',
          '',
          '00:00:01.000 --> 00:00:02.000 vertical:rl size:500% align:<script> line:50%,start',
          '<script>alert(1)</script><img src=x onerror=alert(2)><b onclick="x">negrita</b>',
          '<c.ok.mal"clase.a+b>clase</c> <v.x Ana "María" onload=y>Hola</v> <a href="javascript:alert(3)">enlace</a>',
        ].join('\n'),
      ),
    );
    expect(r.vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:01.000 --> 00:00:02.000 vertical:rl line:50%,start',
        'alert(1)<b>negrita</b>',
        '<c.ok>clase</c> <v.x Ana "María" onload=y>Hola</v> enlace',
        '',
      ].join('\n'),
    );
  });

  it('never lets a cue end early or a line break the file', () => {
    const r = leerSubtitulo(utf8('1\n00:00:01,000 --> 00:00:02,000\nA&#10;&#10;00:00:09.000 --&gt; 00:00:10.000\n'));
    expect(r.vtt.split('\n').filter((l) => l.includes('-->'))).toHaveLength(1);
    expect(r.lineas).toHaveLength(1);
  });

  it('refuses empty, blank, binary and other kinds of files with a reason', () => {
    expect(motivo(new Uint8Array())).toBe('El archivo está vacío.');
    expect(motivo(utf8('\uFEFF  \r\n\n'))).toBe('El archivo está vacío.');
    expect(motivo(utf8('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHola\0mundo\n'))).toBe('El archivo no es de texto.');
    expect(motivo(Uint8Array.from([0x00, 0x01, 0x02, 0xff, 0x10, 0x80]))).toBe('El archivo no es de texto.');
    expect(motivo(utf8('%PDF-1.7\n1 0 obj <<>> endobj\n'), 'clase.vtt')).toBe('El archivo es un PDF, no un archivo de subtítulos.');
    expect(motivo(Uint8Array.from([0, 0, 0, 0x18, ...utf8('ftypisom'), 0, 0]), 'clase.srt')).toBe(
      'El archivo es un video, no un archivo de subtítulos.',
    );
    expect(motivo(Uint8Array.from([0x89, ...utf8('PNG\r\n'), 0x1a, 0x0a]))).toBe('El archivo es una imagen, no un archivo de subtítulos.');
    expect(motivo(utf8('PK\x03\x04 resto'))).toBe(
      'El archivo es un archivo comprimido o un documento de Office, no un archivo de subtítulos.',
    );
  });

  it('refuses text with no cues, naming the extension when the name is not .vtt or .srt', () => {
    const sinCues = 'El archivo no tiene ningún subtítulo con sus tiempos (por ejemplo, 00:00:01.000 --> 00:00:04.000).';
    expect(motivo(utf8('WEBVTT\n\nNOTE solo una nota\n'))).toBe(sinCues);
    expect(motivo(utf8('Hola, esta es mi clase de fracciones.\n'), 'clase.vtt')).toBe(sinCues);
    expect(motivo(utf8('{"subtitulos": []}'), 'clase.json')).toBe(`${sinCues} Los subtítulos deben ser un archivo .vtt o .srt.`);
  });

  it('refuses bad timings, naming the line', () => {
    expect(motivo(utf8('WEBVTT\n\n00:00:01.000 --> mañana\nHola\n'))).toBe(
      'Los tiempos de la línea 3 no son válidos: «00:00:01.000 --> mañana».',
    );
    expect(motivo(utf8('1\n00:00:05,000 --> 00:00:04,000\nAl revés\n'))).toBe(
      'En la línea 2, el inicio (00:00:05.000) no es anterior al fin (00:00:04.000).',
    );
    expect(motivo(utf8('1\n00:00:05,000 --> 00:00:05,000\nSin duración\n'))).toBe(
      'En la línea 2, el inicio (00:00:05.000) no es anterior al fin (00:00:05.000).',
    );
    expect(motivo(utf8('WEBVTT\n\n00:61:00.000 --> 01:02:00.000\nMinuto 61\n'))).toBe(
      'Los tiempos de la línea 3 no son válidos: «00:61:00.000 --> 01:02:00.000».',
    );
    expect(motivo(utf8('WEBVTT\n\n23:59:59.000 --> 24:00:00.001\nMás de un día\n'))).toBe('Los tiempos de la línea 3 pasan de 24 horas.');
    expect(motivo(utf8('WEBVTT\n\n-00:00:01.000 --> 00:00:02.000\nNegativo\n'))).toMatch(/^Los tiempos de la línea 3 no son válidos/);
  });

  it('refuses more than 1 MB, and reads a dense hour of captions quickly', () => {
    expect(motivo(new Uint8Array(1024 * 1024 + 1).fill(0x41))).toBe('El archivo supera el tamaño máximo permitido (1 MB).');
    const cues = Array.from({ length: 3600 }, (_, i) => {
      const t = (s: number) =>
        `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
      return `${i + 1}\n${t(i)} --> ${t(i + 1)}\nLínea ${i} de la clase sobre fracciones y decimales.\n`;
    });
    const inicio = performance.now();
    const r = leerSubtitulo(utf8(`WEBVTT\n\n${cues.join('\n')}`));
    expect(r.lineas).toHaveLength(3600);
    expect(r.lineas.at(-1)).toEqual({ inicio: 3599, fin: 3600, texto: 'Línea 3599 de la clase sobre fracciones y decimales.' });
    expect(performance.now() - inicio).toBeLessThan(1000);
  });

  it('takes pathological input in linear time', () => {
    const inicio = performance.now();
    expect(() => leerSubtitulo(utf8(`WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'<'.repeat(500_000)}`))).not.toThrow();
    expect(leerSubtitulo(utf8(`WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'<c'.repeat(250_000)}x`)).vtt).toContain('&lt;c&lt;c');
    expect(motivo(utf8(`${'0'.repeat(500_000)}:00 --> 1`))).toMatch(/^Los tiempos de la línea 1 no son válidos/);
    expect(performance.now() - inicio).toBeLessThan(2000);
  });
});

describe("the timing line, one pattern for the browser's check and the server's parser", () => {
  /** Lines written by hand or by lax tools, with the start and end (seconds) the server reads. */
  const laxas: [string, number, number][] = [
    ['0:00:01,5 --> 0:00:03,0', 1.5, 3],
    ['00:01 --> 00:03', 1, 3],
    ['1:02.25 --> 1:04', 62.25, 64],
    ['0:0:1 --> 0:0:2', 1, 2],
    ['  00:00:01.000-->00:00:02.000', 1, 2],
    ['01:00:00,05 --> 01:00:01 align:start', 3600.05, 3601],
  ];

  it.each(laxas)('takes %s in the browser and on the server alike', async (linea, inicio, fin) => {
    const srt = `1\r\n${linea}\r\nUna fracción es una parte del todo.\r\n`;
    expect(LINEA_TIEMPOS.test(linea)).toBe(true);
    expect(tieneTiempos(srt)).toBe(true);
    expect(await revisarSubtitulo(new File([srt], 'clase.srt'), 'es')).toEqual({});
    expect(leerSubtitulo(utf8(srt), 'clase.srt').lineas).toEqual([{ inicio, fin, texto: 'Una fracción es una parte del todo.' }]);
  });

  it.each([
    '00:00:01.0000 --> 00:00:02.000',
    '00:00:01 -> 00:00:02',
    '0001:00:00 --> 0001:00:01',
    '00:001:00 --> 00:002:00',
    'desde 00:00:01 --> 00:00:02',
    '00:00:01 --> 00:00:02,',
  ])('refuses %s in the browser and on the server alike', async (linea) => {
    const srt = `1\n${linea}\nTexto\n`;
    expect(LINEA_TIEMPOS.test(linea)).toBe(false);
    expect(tieneTiempos(srt)).toBe(false);
    expect(await revisarSubtitulo(new File([srt], 'clase.srt'), 'es')).toEqual({
      archivo: 'El archivo no es un subtítulo WebVTT (.vtt) ni SRT (.srt) válido',
    });
    expect(motivo(utf8(srt), 'clase.srt')).not.toBe('');
  });

  it('reads a UTF-16 file in the browser as the server does, and says what is missing in tú', async () => {
    const texto = '1\r\n0:00:01,5 --> 0:00:03,0\r\nÑandú\r\n';
    expect(await revisarSubtitulo(new File([utf16le(texto)], 'clase.srt'), 'es')).toEqual({});
    expect(leerSubtitulo(utf16le(texto)).lineas).toEqual([{ inicio: 1.5, fin: 3, texto: 'Ñandú' }]);
    expect(await revisarSubtitulo(null, 'xx')).toEqual({
      idioma: 'Elige un idioma de la lista',
      archivo: 'Selecciona un archivo de subtítulos (.vtt o .srt)',
    });
  });
});

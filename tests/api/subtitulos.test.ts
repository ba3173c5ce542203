/**
 * Captions (issue 20): WebVTT and SRT uploaded per capsule and language by its author or an admin,
 * listed, served as text/vtt from /streaming/{id}/, replaced and removed; broken files refused
 * with a Spanish reason and nothing changed; the capsule search finds words said in the video.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capsulas, registroAdmin, subtitulos } from '../../src/lib/server/db/schema.server.ts';
import {
  IDIOMA_NO_VALIDO,
  SUBTITULO_GRANDE,
  SUBTITULO_INVALIDO,
  SUBTITULO_NO_ENCONTRADO,
  SUBTITULO_REQUERIDO,
} from '../../src/lib/validation/subtitulos.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { insertarCapsula, type Sesion } from '../support/contenido.ts';
import { formData } from '../support/form.ts';

let t: TestApi;
let admin: Sesion;
let autora: Sesion;
let otra: Sesion;
beforeAll(async () => {
  t = await createTestApi();
  admin = await t.session({ admin: true });
  autora = await t.session({ nombre: 'Autora' });
  otra = await t.session({ nombre: 'Otra' });
});
afterAll(() => t.close());

const VTT = [
  'WEBVTT',
  '',
  'NOTE hecho a mano',
  '',
  '1',
  '00:00:01.000 --> 00:00:04.000 align:start',
  'Hoy hablaremos de <b>geometría</b>.',
  '',
  '00:03:12.500 --> 00:03:15.000',
  'La fracción representa una parte del todo.',
  '',
].join('\n');
const VTT_NORMALIZADO = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:04.000 align:start',
  'Hoy hablaremos de <b>geometría</b>.',
  '',
  '00:03:12.500 --> 00:03:15.000',
  'La fracción representa una parte del todo.',
  '',
].join('\n');
const SRT =
  '\uFEFF1\r\n00:00:02,000 --> 00:00:05,500\r\nThe numerator is on top.\r\n\r\n2\r\n00:01:00,000 --> 00:01:03,000\r\n<i>Denominator</i> below.\r\n';

const enviar = (quien: Sesion | null, capsula: number, idioma: string | null, data?: Buffer | string, name = 'clase.vtt') =>
  t.call('POST', `/api/capsulas/${capsula}/subtitulos/`, {
    ...(quien ? { token: quien.token } : {}),
    body: formData(idioma === null ? {} : { idioma }, data === undefined ? undefined : { data, name, type: 'text/vtt' }),
  });
const lista = async (quien: Sesion, capsula: number) => {
  const res = await t.call('GET', `/api/capsulas/${capsula}/subtitulos/`, { token: quien.token });
  expect(res.status).toBe(200);
  return (await res.json()).subtitulos as { idioma: string; nombre: string; url: string }[];
};
const archivo = (quien: Sesion, capsula: number, idioma: string, headers: Record<string, string> = {}) =>
  t.call('GET', `/streaming/${capsula}/subtitulos-${idioma}.vtt`, { token: quien.token, headers });
const guardados = (capsula: number) => t.db.select().from(subtitulos).where(eq(subtitulos.id_capsula, capsula));

describe('uploading captions', () => {
  it('takes a WebVTT and an SRT, lists Spanish first, and serves each as normalized text/vtt', async () => {
    const id = await insertarCapsula(t, autora, 'Números racionales');
    const en = await enviar(autora, id, 'en', SRT, 'clase.srt');
    expect(en.status).toBe(201);
    expect(await en.json()).toEqual({ idioma: 'en', nombre: 'Inglés', url: `/streaming/${id}/subtitulos-en.vtt` });
    expect((await enviar(autora, id, 'es', VTT)).status).toBe(201);

    expect(await lista(otra, id)).toEqual([
      { idioma: 'es', nombre: 'Español', url: `/streaming/${id}/subtitulos-es.vtt` },
      { idioma: 'en', nombre: 'Inglés', url: `/streaming/${id}/subtitulos-en.vtt` },
    ]);

    const es = await archivo(otra, id, 'es');
    expect(es.status).toBe(200);
    expect(es.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(es.headers.get('cache-control')).toBe('private, no-cache');
    expect(await es.text()).toBe(VTT_NORMALIZADO);
    const srt = await archivo(otra, id, 'en');
    expect(await srt.text()).toBe(
      'WEBVTT\n\n00:00:02.000 --> 00:00:05.500\nThe numerator is on top.\n\n00:01:00.000 --> 00:01:03.000\n<i>Denominator</i> below.\n',
    );

    // Unchanged since the browser's copy: 304, no body.
    const etag = es.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    const otraVez = await archivo(otra, id, 'es', { 'if-none-match': etag });
    expect(otraVez.status).toBe(304);
    expect(await otraVez.text()).toBe('');

    const [fila] = (await guardados(id)).filter((s) => s.idioma === 'es');
    expect(fila?.lineas).toEqual([
      { inicio: 1, fin: 4, texto: 'Hoy hablaremos de geometría.' },
      { inicio: 192.5, fin: 195, texto: 'La fracción representa una parte del todo.' },
    ]);
    expect(fila?.texto).toBe('Hoy hablaremos de geometría.\nLa fracción representa una parte del todo.');

    const transcripcion = await t.api.services.subtitulos.conLineas(id, { id: otra.id, groups: [] });
    expect(transcripcion.map((s) => [s.idioma, s.lineas.length])).toEqual([
      ['es', 2],
      ['en', 2],
    ]);
  });

  it('converts a Windows-1252 SRT, as old subtitle tools save it', async () => {
    const id = await insertarCapsula(t, autora, 'Lenguaje');
    const bytes = Buffer.from('1\r\n00:00:01,000 --> 00:00:03,000\r\n¿Qué es una oración? Señalo la acción.\r\n', 'latin1');
    expect((await enviar(autora, id, 'es', bytes, 'lenguaje.srt')).status).toBe(201);
    expect(await (await archivo(otra, id, 'es')).text()).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n¿Qué es una oración? Señalo la acción.\n',
    );
  });

  it('replaces the captions of a language, and a new copy gets a new ETag', async () => {
    const id = await insertarCapsula(t, autora, 'Reemplazo');
    await enviar(autora, id, 'es', VTT);
    const antes = (await archivo(otra, id, 'es')).headers.get('etag') ?? '';
    const res = await enviar(admin, id, 'es', 'WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nVersión corregida\n');
    expect(res.status).toBe(201);
    expect(await guardados(id)).toHaveLength(1);
    const despues = await archivo(otra, id, 'es', { 'if-none-match': antes });
    expect(despues.status).toBe(200);
    expect(await despues.text()).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nVersión corregida\n');
  });

  it('removes a language: 204, then 404 for it, the list and the file', async () => {
    const id = await insertarCapsula(t, autora, 'Eliminar');
    await enviar(autora, id, 'es', VTT);
    await enviar(autora, id, 'en', SRT, 'clase.srt');
    expect((await t.call('DELETE', `/api/capsulas/${id}/subtitulos/en/`, { token: otra.token })).status).toBe(403);
    expect((await t.call('DELETE', `/api/capsulas/${id}/subtitulos/en/`, { token: autora.token })).status).toBe(204);
    expect((await lista(autora, id)).map((s) => s.idioma)).toEqual(['es']);
    const otraVez = await t.call('DELETE', `/api/capsulas/${id}/subtitulos/en/`, { token: autora.token });
    expect(otraVez.status).toBe(404);
    expect((await otraVez.json()).detail).toBe(SUBTITULO_NO_ENCONTRADO);
    const servido = await archivo(autora, id, 'en');
    expect(servido.status).toBe(404);
    expect((await servido.json()).detail).toBe(SUBTITULO_NO_ENCONTRADO);
    const invalido = await t.call('DELETE', `/api/capsulas/${id}/subtitulos/xx/`, { token: autora.token });
    expect(invalido.status).toBe(400);
    expect((await invalido.json()).errors.idioma).toEqual([IDIOMA_NO_VALIDO]);
  });

  it('records in the audit log what an admin changes on another person’s capsule, not what the author does', async () => {
    const id = await insertarCapsula(t, autora, 'Registro de cambios');
    await enviar(autora, id, 'es', VTT);
    await enviar(admin, id, 'en', SRT, 'clase.srt');
    await t.call('DELETE', `/api/capsulas/${id}/subtitulos/es/`, { token: admin.token });
    const filas = await t.db
      .select()
      .from(registroAdmin)
      .where(and(eq(registroAdmin.tipo, 'capsula'), eq(registroAdmin.id_registro, id)));
    expect(filas.map((f) => [f.accion, f.detalle]).sort()).toEqual([
      ['eliminar_subtitulos', 'Eliminó los subtítulos en Español de la cápsula «Registro de cambios»'],
      ['subir_subtitulos', 'Subió subtítulos en Inglés a la cápsula «Registro de cambios»'],
    ]);
  });
});

describe('broken files and wrong people change nothing', () => {
  let id: number;
  beforeAll(async () => {
    id = await insertarCapsula(t, autora, 'Intacta');
    expect((await enviar(autora, id, 'es', VTT)).status).toBe(201);
  });

  const rechazado = async (res: Response, estado: number, detalle: string) => {
    expect(res.status).toBe(estado);
    const cuerpo = await res.json();
    expect(cuerpo.detail).toBe(detalle);
    expect((await guardados(id)).map((s) => [s.idioma, s.vtt])).toEqual([['es', VTT_NORMALIZADO]]);
    return cuerpo.errors as Record<string, string[]>;
  };

  it.each([
    ['empty', '', 'clase.vtt', 'El archivo está vacío.'],
    ['binary', Buffer.from([0, 159, 146, 150, 0, 1, 2, 3, 255, 254, 0]), 'clase.vtt', 'El archivo no es de texto.'],
    [
      'a PDF renamed .vtt',
      '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n',
      'clase.vtt',
      'El archivo es un PDF, no un archivo de subtítulos.',
    ],
    [
      'no cues',
      'WEBVTT\n\nNOTE nada más\n',
      'clase.vtt',
      'El archivo no tiene ningún subtítulo con sus tiempos (por ejemplo, 00:00:01.000 --> 00:00:04.000).',
    ],
    [
      'bad timings',
      '1\n00:00:09,000 --> 00:00:03,000\nAl revés\n',
      'clase.srt',
      'En la línea 2, el inicio (00:00:09.000) no es anterior al fin (00:00:03.000).',
    ],
    [
      'times that are not times',
      'WEBVTT\n\n00:00:01.000 --> luego\nHola\n',
      'clase.vtt',
      'Los tiempos de la línea 3 no son válidos: «00:00:01.000 --> luego».',
    ],
  ])('refuses %s with the reason on the file field', async (_, data, name, motivo) => {
    const errors = await rechazado(await enviar(autora, id, 'es', data, name), 400, SUBTITULO_INVALIDO);
    expect(errors.archivo).toEqual([SUBTITULO_INVALIDO, motivo]);
  });

  it('refuses a file over 1 MB with 413', async () => {
    const grande = `WEBVTT\n\n${'00:00:01.000 --> 00:00:02.000\nrelleno relleno relleno\n\n'.repeat(40_000)}`;
    expect(grande.length).toBeGreaterThan(2 * 1024 * 1024);
    const errors = await rechazado(await enviar(autora, id, 'es', grande), 413, SUBTITULO_GRANDE);
    expect(errors.archivo).toEqual([SUBTITULO_GRANDE]);
  });

  it('refuses a missing file or language', async () => {
    expect((await rechazado(await enviar(autora, id, 'es'), 400, SUBTITULO_REQUERIDO)).archivo).toEqual([SUBTITULO_REQUERIDO]);
    expect((await rechazado(await enviar(autora, id, 'xx', VTT), 400, IDIOMA_NO_VALIDO)).idioma).toEqual([IDIOMA_NO_VALIDO]);
    expect((await rechazado(await enviar(autora, id, null, VTT), 400, IDIOMA_NO_VALIDO)).idioma).toEqual([IDIOMA_NO_VALIDO]);
  });

  it('lets only the author or an admin change them: another teacher 403, signed out 401', async () => {
    await rechazado(await enviar(otra, id, 'es', 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nIntruso\n'), 403, 'No tienes permisos');
    expect((await enviar(null, id, 'es', VTT)).status).toBe(401);
    expect((await t.call('GET', `/api/capsulas/${id}/subtitulos/`)).status).toBe(401);
    expect((await t.call('GET', `/streaming/${id}/subtitulos-es.vtt`)).status).toBe(401);
    expect((await t.call('DELETE', `/api/capsulas/${id}/subtitulos/es/`)).status).toBe(401);
  });

  it('hides everything about a hidden capsule from other teachers (404), not from its author', async () => {
    const oculta = await insertarCapsula(t, autora, 'Oculta por moderación');
    expect((await enviar(autora, oculta, 'es', VTT)).status).toBe(201);
    await t.db.update(capsulas).set({ oculto: true }).where(eq(capsulas.id, oculta));
    expect((await t.call('GET', `/api/capsulas/${oculta}/subtitulos/`, { token: otra.token })).status).toBe(404);
    expect((await archivo(otra, oculta, 'es')).status).toBe(404);
    expect((await enviar(otra, oculta, 'es', VTT)).status).toBe(404);
    expect((await t.call('DELETE', `/api/capsulas/${oculta}/subtitulos/es/`, { token: otra.token })).status).toBe(404);
    expect((await archivo(autora, oculta, 'es')).status).toBe(200);
    expect((await lista(admin, oculta)).map((s) => s.idioma)).toEqual(['es']);
  });

  it('serves no file before the video is ready, nor for an unknown language or capsule', async () => {
    const procesando = await insertarCapsula(t, autora, 'En proceso', { estado: 'procesando' });
    expect((await enviar(autora, procesando, 'es', VTT)).status).toBe(201);
    expect((await lista(autora, procesando)).map((s) => s.idioma)).toEqual(['es']);
    expect((await archivo(autora, procesando, 'es')).status).toBe(404);
    expect((await archivo(otra, id, 'xx')).status).toBe(404);
    expect((await archivo(otra, id, 'fr')).status).toBe(404);
    expect((await archivo(otra, 999_999, 'es')).status).toBe(404);
    expect((await enviar(admin, 999_999, 'es', VTT)).status).toBe(404);
  });
});

describe('searching what was said', () => {
  type Item = { id: number; titulo: string; mencion?: { segundo: number; texto: string; idioma: string } };
  const buscar = async (q: string, quien: Sesion = otra) => {
    const res = await t.call('GET', `/api/capsulas/?titulo=${encodeURIComponent(q)}`, { token: quien.token });
    expect(res.status).toBe(200);
    return (await res.json()).capsula as Item[];
  };
  let dicha: number;
  let titulada: number;
  let oculta: number;
  beforeAll(async () => {
    dicha = await insertarCapsula(t, autora, 'Clase del martes', { descripcion: 'Sin palabras clave' });
    titulada = await insertarCapsula(t, autora, 'Fracciones impropias', { descripcion: 'Introducción' });
    oculta = await insertarCapsula(t, autora, 'Clase escondida', { descripcion: 'Nada' });
    await enviar(autora, dicha, 'es', VTT);
    await enviar(autora, dicha, 'en', SRT, 'clase.srt');
    await enviar(autora, titulada, 'es', VTT);
    await enviar(autora, oculta, 'es', 'WEBVTT\n\n00:00:07.000 --> 00:00:09.000\nUn trapezoide escondido.\n');
    await t.db.update(capsulas).set({ oculto: true }).where(eq(capsulas.id, oculta));
  });

  it('finds a capsule by a word said only in its captions, with or without accents, and says where', async () => {
    for (const q of ['fraccion', 'fracción', 'FRACCIONES', 'fracc']) {
      const encontradas = await buscar(q);
      const porSubtitulos = encontradas.find((c) => c.id === dicha);
      expect(porSubtitulos?.mencion, q).toEqual({ segundo: 192.5, texto: 'La fracción representa una parte del todo.', idioma: 'es' });
      // Found by its title: no mention.
      const porTitulo = encontradas.find((c) => c.id === titulada);
      expect(porTitulo, q).toBeDefined();
      expect(porTitulo && 'mencion' in porTitulo, q).toBe(false);
    }
  });

  it('prefers the line that has every word, and finds words in other languages', async () => {
    expect((await buscar('parte todo')).find((c) => c.id === dicha)?.mencion?.segundo).toBe(192.5);
    expect((await buscar('geometria fraccion')).map((c) => c.id)).toContain(dicha);
    expect((await buscar('geometria fraccion')).find((c) => c.id === dicha)?.mencion?.segundo).toBe(1);
    expect((await buscar('denominator')).find((c) => c.id === dicha)?.mencion).toEqual({
      segundo: 60,
      texto: 'Denominator below.',
      idioma: 'en',
    });
    expect(await buscar('paralelepipedo')).toEqual([]);
  });

  it('keeps hidden capsules hidden, and sees new and removed captions at once (the list cache)', async () => {
    expect((await buscar('trapezoide')).map((c) => c.id)).toEqual([]);
    expect((await buscar('trapezoide', autora)).map((c) => c.id)).toEqual([oculta]);
    expect((await buscar('trapezoide', admin)).map((c) => c.id)).toEqual([oculta]);

    const nueva = await insertarCapsula(t, autora, 'Otra clase');
    expect(await buscar('hexagono')).toEqual([]);
    await enviar(autora, nueva, 'es', 'WEBVTT\n\n00:00:30.000 --> 00:00:33.000\nDibujen un hexágono.\n');
    expect((await buscar('hexagono')).map((c) => [c.id, c.mencion?.segundo])).toEqual([[nueva, 30]]);
    await t.call('DELETE', `/api/capsulas/${nueva}/subtitulos/es/`, { token: autora.token });
    expect(await buscar('hexagono')).toEqual([]);
  });

  it('refuses a made-up file with more distinct words than the search can index', async () => {
    const palabras = Array.from({ length: 90_000 }, (_, i) => `p${i.toString(36)}q${((i * 7919) % 99991).toString(36)}`);
    const cues = [];
    for (let i = 0; i < palabras.length; i += 900) cues.push(`00:00:01.000 --> 00:00:02.000\n${palabras.slice(i, i + 900).join(' ')}\n`);
    const texto = `WEBVTT\n\n${cues.join('\n')}`;
    expect(texto.length).toBeLessThan(1024 * 1024);
    const id = await insertarCapsula(t, autora, 'Hostil');
    const res = await enviar(autora, id, 'es', texto);
    expect(res.status).toBe(400);
    expect((await res.json()).errors.archivo).toEqual([
      SUBTITULO_INVALIDO,
      'El archivo tiene demasiadas palabras distintas para la búsqueda.',
    ]);
    expect(await guardados(id)).toEqual([]);
    expect(await buscar('fraccion')).not.toEqual([]);
  });
});

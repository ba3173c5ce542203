/** The one rule for text, the one rule for ids, list filters on pages and zod's Spanish messages. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { id } from '../../src/lib/server/api/schemas.server.ts';
import { materialSchema } from '../../src/lib/validation/biblioteca.ts';
import { ID_MAX, idPositivo } from '../../src/lib/validation/campos.ts';
import { busquedaCapsulasSchema, capsulaSchema } from '../../src/lib/validation/capsulas.ts';
import { comentarioSchema } from '../../src/lib/validation/comentarios.ts';
import { loginSchema } from '../../src/lib/validation/cuentas.ts';
import { listaConversacionesSchema } from '../../src/lib/validation/foro.ts';
import { filtroId, filtrosPagina, TEXTO_BUSQUEDA_MAX, texto } from '../../src/lib/validation/listas.ts';
import { manualEdicionSchema } from '../../src/lib/validation/manuales.ts';
import { TEXTO_NO_PERMITIDO, textoNoPermitidoEn, textoPermitido } from '../../src/lib/validation/texto.ts';

/** Every control character the rule refuses, and the lone surrogates. */
const REFUSED = [
  ...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
].map((c) => String.fromCharCode(c));

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('textoPermitido', () => {
  it('refuses NUL, every other C0 and C1 control and DEL', () => {
    expect(REFUSED).toHaveLength(29 + 33);
    for (const c of REFUSED) expect(textoPermitido(`a${c}b`), JSON.stringify(c)).toBe(false);
  });

  it('keeps tab, line breaks, accents, emoji and every script a teacher may paste', () => {
    for (const text of [
      '',
      'línea 1\r\nlínea 2\tfin',
      'Ñandú ¿qué? ¡sí!',
      'pizarra 🧑‍🏫📚',
      '数学',
      'Ελληνικά',
      '\u00a0espacio duro',
      '\ufeff',
    ]) {
      expect(textoPermitido(text), text).toBe(true);
    }
  });

  it('refuses lone surrogates, first or last or in the middle, and keeps pairs', () => {
    for (const text of ['\ud800', 'a\ud800', '\ud800a', '\udc00', 'a\udc00b', '\udc00\ud800', '😀\ud83d']) {
      expect(textoPermitido(text), JSON.stringify(text)).toBe(false);
    }
    expect(textoPermitido('\ud83d\ude00')).toBe(true);
  });
});

describe('textoNoPermitidoEn (the server-side walk over every input)', () => {
  it('names the first field holding a refused text, at any depth, in keys too', () => {
    expect(textoNoPermitidoEn({ a: 'ok', b: { c: ['ok', 'x\u0000'] } })).toEqual(['b', 'c']);
    expect(textoNoPermitidoEn({ 'clave\u0000': 1 })).toEqual(['clave\u0000']);
    expect(textoNoPermitidoEn('\u0000')).toEqual([]);
    expect(textoNoPermitidoEn({ a: 1, b: true, c: null, d: ['x', { e: 'y\n' }] })).toBeNull();
  });
});

describe('the shared schemas refuse such text with one Spanish message', () => {
  it('in required, optional and password fields', () => {
    expect(messages(comentarioSchema, { contenido: 'hola\u0000' })).toEqual([TEXTO_NO_PERMITIDO]);
    expect(messages(loginSchema, { email: 'ana@colegio.cl', password: 'Clave\u0000' })).toEqual([TEXTO_NO_PERMITIDO]);
    const capsula = { titulo: 'T\u001b', descripcion: 'd', id_area: 1, id_metodologia: 1, id_nivel: '1B' };
    expect(capsulaSchema.safeParse(capsula).error?.issues).toEqual([
      expect.objectContaining({ path: ['titulo'], message: TEXTO_NO_PERMITIDO }),
    ]);
  });

  it('and a list page drops such a search instead of failing', () => {
    expect(filtrosPagina(busquedaCapsulasSchema, new URLSearchParams('titulo=%00&pagina=2')).titulo).toBeUndefined();
  });
});

describe('one rule for ids', () => {
  const bad: unknown[] = ['99999999999999999999', 1e20, ID_MAX + 1, '-1', -1, 0, '0', '1e400', Number.POSITIVE_INFINITY, '1.5', 1.5];
  const worse: unknown[] = ['0x10', '1e3', '', ' ', 'abc', true, null, ['3'], {}, '\u0000', '١٢'];

  it('accepts whole numbers from 1 to the largest integer column, as numbers or digits', () => {
    expect(id().parse(7)).toBe(7);
    expect(id().parse('7')).toBe(7);
    expect(id().parse(' 42 ')).toBe(42);
    expect(id().parse(String(ID_MAX))).toBe(ID_MAX);
    expect(id().parse('007')).toBe(7);
  });

  it('refuses everything else with the given Spanish message', () => {
    for (const value of [...bad, ...worse]) expect(messages(id(), value), String(value)).toEqual(['Identificador no válido']);
    expect(messages(idPositivo('Debe seleccionar una area'), '-1')).toEqual(['Debe seleccionar una area']);
  });

  it('list filters take placeholders as no filter and refuse the rest', () => {
    for (const placeholder of [undefined, '', '-1', '0', ' ', ['-1', '3']]) expect(filtroId.parse(placeholder)).toBeUndefined();
    expect(filtroId.parse(['5', '6'])).toBe(5);
    for (const value of ['99999999999999999999', '1.5', '0x10', '1e400', 'abc', '-7']) {
      expect(messages(filtroId, value), value).toEqual(['Filtro no válido']);
    }
  });

  it('form ids that would overflow the database are refused, OA lists drop them', () => {
    expect(messages(manualEdicionSchema.shape.id_area, '99999999999999999999')).toEqual(['Debe ingresar una area']);
    expect(manualEdicionSchema.shape.id_area.parse('Matemática')).toBe('Matemática');
    expect(messages(materialSchema.shape.oas, ['99999999999999999999'])).toEqual(['Debe ingresar al menos un OA']);
    expect(materialSchema.shape.oas.parse(['3', '99999999999999999999', '3'])).toEqual([3]);
    expect(materialSchema.shape.oas.parse(['0x10', '1.5', 4, ' 5 '])).toEqual([4, 5]);
  });
});

describe('filtrosPagina', () => {
  it('drops only the wrong filters and keeps the rest', () => {
    const f = filtrosPagina(busquedaCapsulasSchema, new URLSearchParams('area=0x10&metodologia=2&pagina=99999999999999999999&nivel=1B'));
    expect(f).toEqual({ titulo: undefined, area: undefined, metodologia: 2, nivel: '1B', pagina: 1, tamano_pagina: 10, order: 'fecha' });
  });

  it('cuts a search longer than the limit there instead of dropping it, which would list everything', () => {
    const largo = `${'á'.repeat(TEXTO_BUSQUEDA_MAX - 1)}😀😀 resto`;
    expect(filtrosPagina(busquedaCapsulasSchema, new URLSearchParams({ titulo: largo, area: '2' }))).toMatchObject({
      titulo: `${'á'.repeat(TEXTO_BUSQUEDA_MAX - 1)}😀`,
      area: 2,
    });
    expect(texto.parse(`  ${'x'.repeat(TEXTO_BUSQUEDA_MAX - 1)}  y`)).toBe('x'.repeat(TEXTO_BUSQUEDA_MAX - 1));
    for (const nada of [undefined, '', '   ', 7, ['a']]) expect(texto.parse(nada), String(nada)).toBeUndefined();
  });

  it('survives a schema whose cross-field rule fails', () => {
    const f = filtrosPagina(listaConversacionesSchema('2026-01-01'), { fecha_desde: '2030-01-01', palabra_clave: 'x' });
    expect(f.fecha_desde).toBeUndefined();
    expect(f.palabra_clave).toBe('x');
  });
});

describe('zod speaks Spanish', () => {
  it('where a schema gives no message of its own', () => {
    const [wrongType] = messages(z.object({ a: z.string() }), { a: true });
    const [notObject] = messages(z.object({ a: z.string() }), []);
    const [enumValue] = messages(z.enum(['a', 'b']), 'c');
    for (const message of [wrongType, notObject, enumValue]) {
      expect(message).toBeDefined();
      expect(message).not.toMatch(/Invalid|expected|received/);
    }
    expect(wrongType).toBe('Entrada inválida: se esperaba texto, recibido booleano');
  });
});

describe('textoNoPermitidoEn on hostile shapes', () => {
  it('walks a body nested 100,000 levels deep without overflowing the stack', () => {
    const profundo = JSON.parse(`${'{"a":'.repeat(100_000)}"x\\u0000"${'}'.repeat(100_000)}`);
    const ruta = textoNoPermitidoEn(profundo);
    expect(ruta).toHaveLength(100_000);
    expect(ruta?.every((parte) => parte === 'a')).toBe(true);
    expect(textoNoPermitidoEn(JSON.parse(`${'['.repeat(100_000)}"ok"${']'.repeat(100_000)}`))).toBeNull();
  });
});

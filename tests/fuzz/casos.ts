/**
 * The requests of a fuzz run, generated from openapi.yaml: for every operation and every actor
 * (anonymous, teacher, admin), a plausible request and many that differ from it in one way (a
 * path or query value, a field's type or text, a missing or extra field, the body's syntax, its
 * media type, a multipart body cut short or abandoned), plus methods and paths nobody documented.
 */
import type { Azar } from './azar.ts';
import { type Conocidos, type Esquema, type Operacion, plausible, propiedades, tipoDe } from './contrato.ts';
import { ARCHIVO, ARCHIVOS_RAROS, type Archivo, JSON_ROTOS, json, multipart, NO_OBJETOS, NOMBRES_RAROS, partesDe } from './cuerpos.ts';
import {
  CONSULTAS_RARAS,
  enorme,
  enUrl,
  NUMEROS_RAROS,
  NUMEROS_TEXTO,
  SEGMENTOS_RAROS,
  TEXTOS_RAROS,
  TIPOS_EQUIVOCADOS,
} from './valores.ts';

export type Rol = 'anonimo' | 'docente' | 'admin';

export interface Actor {
  rol: Rol;
  token?: string;
  id?: number;
}

export interface Caso {
  op: string;
  rol: Rol;
  /** What is odd about it, e.g. 'cuerpo:texto-raro', 'multipart:cortado-a-mitad'. */
  clase: string;
  metodo: string;
  /** Path and query exactly as they go on the wire. */
  ruta: string;
  cabeceras: Record<string, string>;
  cuerpo?: Buffer;
  /** Send the head and part of the body, then destroy the socket or half-close it. */
  corte?: { bytes: number; modo: 'destruir' | 'cerrar' };
  /** A Content-Length other than the body's (a huge declared size). */
  declarado?: number;
  /** Whether an answer must come (not for sockets the client destroyed). */
  respuesta: 'debe' | 'puede';
}

/** What the run set up before generating: the actors and the ids of things that exist. */
export interface Mundo {
  actores: readonly Actor[];
  ids: { categoria: number; conversacion: number; comentarioForo: number; manual: number; comentarioManual: number };
  /** A valid file for an upload field (a tiny PDF, a tiny PNG), by operation. */
  archivoValido: (op: Operacion) => Archivo;
}

const BOUNDARY = 'fuzzLimite7MA4YWxkTrZu0gW';

/** The ids a field or parameter of this operation takes when it should name something real. */
function conocidosPara(op: Operacion, actor: Actor, mundo: Mundo): Conocidos {
  const otro = mundo.actores.find((a) => a.id !== undefined && a.id !== actor.id)?.id;
  const { ids } = mundo;
  const porCampo: Record<string, number | undefined> = {
    id_usuario: actor.id,
    usuario: actor.id,
    usuario_id: actor.id,
    id_usuario_sender: actor.id,
    id_usuario_receiver: otro,
    id_categoria: ids.categoria,
    id_conversacion: ids.conversacion,
    comentario_padre: ids.comentarioForo,
    id_comentario: ids.comentarioForo,
    id_respuesta_comentario: ids.comentarioManual,
    id_recurso: ids.manual,
    id_manual: ids.manual,
  };
  const idDeRuta = (): number => {
    const p = op.plantilla;
    if (/^\/api\/usuarios\/|^\/miniaturas\/usuarios/.test(p)) return actor.id ?? 1;
    if (p.includes('/categorias/')) return ids.categoria;
    if (p.includes('/conversacion/')) return ids.conversacion;
    if (p.includes('/comentario/')) return ids.comentarioForo;
    if (p.includes('/manuales/')) return ids.manual;
    return 1;
  };
  return (campo) => (campo === 'id' && op.plantilla.includes('{id}') ? idDeRuta() : porCampo[campo]);
}

/** Generates every case of one operation for one actor. */
export function casosDe(op: Operacion, actor: Actor, mundo: Mundo, azar: Azar): Caso[] {
  const conocidos = conocidosPara(op, actor, mundo);
  const enRuta = op.parametros.filter((p) => p.en === 'path');
  const enConsulta = op.parametros.filter((p) => p.en === 'query');
  const segmentos = (): Record<string, string> =>
    Object.fromEntries(enRuta.map((p) => [p.nombre, segmentoPlausible(p.nombre, p.esquema, azar, conocidos)]));
  const consulta = (): Record<string, string> =>
    Object.fromEntries(
      enConsulta
        .filter(() => azar.siguiente() < 0.5)
        .map((p) => [p.nombre, enUrl(String(plausible(p.esquema, p.nombre, azar, conocidos)))]),
    );
  const campos = (): Record<string, unknown> => {
    if (!op.cuerpo) return {};
    return Object.fromEntries(
      propiedades(op.cuerpo.esquema).map(([k, v]) => [k, v.format === 'binary' ? ARCHIVO : plausible(v, k, azar, conocidos)]),
    );
  };
  const archivo = mundo.archivoValido(op);
  const casos: Caso[] = [];

  /** One request: the plausible one with the given parts replaced. */
  const caso = (
    clase: string,
    partes: {
      ruta?: Record<string, string>;
      consulta?: string;
      cuerpo?: Buffer | null;
      tipo?: string | null;
      metodo?: string;
      cabeceras?: Record<string, string>;
    } & Pick<Caso, 'corte' | 'declarado'> = {},
    respuesta: Caso['respuesta'] = 'debe',
  ) => {
    const valores = partes.ruta ?? segmentos();
    let ruta = op.plantilla.replace(/\{(\w+)\}/g, (_, n: string) => valores[n] ?? '1');
    const q =
      partes.consulta ??
      Object.entries(consulta())
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
    if (q) ruta += `?${q}`;
    const cabeceras: Record<string, string> = { ...autorizacion(actor), ...partes.cabeceras };
    let cuerpo = partes.cuerpo === undefined ? cuerpoPlausible(op, campos(), archivo) : (partes.cuerpo ?? undefined);
    const tipo = partes.tipo === undefined ? tipoPlausible(op) : partes.tipo;
    if (tipo) cabeceras['content-type'] = tipo;
    if (cuerpo === undefined && tipo) cuerpo = Buffer.alloc(0);
    casos.push({
      op: op.id,
      rol: actor.rol,
      clase,
      metodo: partes.metodo ?? op.metodo,
      ruta,
      cabeceras,
      ...(cuerpo !== undefined ? { cuerpo } : {}),
      ...(partes.corte ? { corte: partes.corte } : {}),
      ...(partes.declarado ? { declarado: partes.declarado } : {}),
      respuesta,
    });
  };

  caso('base');
  caso('base');

  // Path parameters: traversal, NUL, out of range, not numbers, broken percent-encoding.
  const muestra = actor.rol === 'anonimo' ? 4 : SEGMENTOS_RAROS.length;
  for (const p of enRuta) {
    for (const s of azar.algunos(SEGMENTOS_RAROS, muestra)) caso('ruta:segmento-raro', { ruta: { ...segmentos(), [p.nombre]: s } });
    for (const t of azar.algunos(TEXTOS_RAROS, 3)) caso('ruta:texto-raro', { ruta: { ...segmentos(), [p.nombre]: enUrl(t) } });
  }

  // Query parameters: one odd value at a time, then odd query strings as a whole.
  for (const p of enConsulta) {
    const raros = [...azar.algunos(NUMEROS_TEXTO, 4).map(enUrl), ...azar.algunos(TEXTOS_RAROS, 3).map(enUrl)];
    for (const v of raros) caso('consulta:valor-raro', { consulta: `${p.nombre}=${v}` });
  }
  for (const q of azar.algunos(CONSULTAS_RARAS, 4)) caso('consulta:cadena-rara', { consulta: q });

  if (op.cuerpo) casosDeCuerpo(op, actor, azar, caso, campos, archivo);
  else if (op.metodo !== 'GET') caso('cuerpo:inesperado', { cuerpo: json({ a: 1 }), tipo: 'application/json' });

  // Tokens that are not tokens.
  if (op.conSesion && actor.rol === 'anonimo') {
    for (const valor of ['Bearer x', 'Bearer ', 'Basic YWRtaW46YWRtaW4=', `Bearer ${'a'.repeat(2000)}`, 'Bearer a.b.c']) {
      caso('auth:token-roto', { cabeceras: { authorization: valor } });
    }
    caso('auth:cookie-rota', { cabeceras: { cookie: 'ed_access=%00; ed_refresh=..%2f' } });
  }
  return casos;
}

type HacerCaso = (
  clase: string,
  partes?: {
    cuerpo?: Buffer | null;
    tipo?: string | null;
    cabeceras?: Record<string, string>;
  } & Pick<Caso, 'corte' | 'declarado'>,
  respuesta?: Caso['respuesta'],
) => void;

/** Body mutations: the same for JSON and forms where they mean the same, plus each format's own. */
function casosDeCuerpo(
  op: Operacion,
  actor: Actor,
  azar: Azar,
  caso: HacerCaso,
  campos: () => Record<string, unknown>,
  archivo: Archivo,
): void {
  if (!op.cuerpo) return;
  const esForm = op.cuerpo.tipo === 'multipart/form-data';
  const con = (valores: Record<string, unknown>, a: Archivo = archivo) => cuerpoPlausible(op, valores, a);
  for (const [nombre, esquema] of propiedades(op.cuerpo.esquema)) {
    const { [nombre]: _, ...sin } = campos();
    caso('cuerpo:sin-campo', { cuerpo: con(sin) });
    for (const v of azar.algunos(TIPOS_EQUIVOCADOS, 3)) caso('cuerpo:tipo-equivocado', { cuerpo: con({ ...campos(), [nombre]: v }) });
    for (const t of azar.algunos(TEXTOS_RAROS, esquema.format === 'binary' ? 1 : 4)) {
      caso('cuerpo:texto-raro', { cuerpo: con({ ...campos(), [nombre]: t }) });
    }
    if (['integer', 'number'].includes(tipoDe(esquema))) {
      const numeros = esForm ? azar.algunos(NUMEROS_TEXTO, 4) : azar.algunos(NUMEROS_RAROS, 4);
      for (const n of numeros) caso('cuerpo:numero-raro', { cuerpo: con({ ...campos(), [nombre]: n }) });
    }
  }
  caso('cuerpo:campos-extra', {
    cuerpo: con({ ...campos(), ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra_${i}`, i % 2 ? 'x' : [i]])) }),
  });
  caso('cuerpo:vacio', { cuerpo: null });
  caso('cuerpo:sin-tipo', { tipo: null });
  for (const tipo of ['text/plain', 'application/xml', 'application/octet-stream', 'application/json; charset=latin1', 'x/y/z', ';;;']) {
    caso('cuerpo:tipo-de-contenido', { tipo });
  }
  // One huge body per operation (1 MB+), from one actor chosen at random: enough to see the limit.
  if (azar.siguiente() < 0.34 || actor.rol === 'admin') {
    const [campo] = propiedades(op.cuerpo.esquema).find(([, e]) => tipoDe(e) === 'string' && e.format !== 'binary') ?? ['texto'];
    caso('cuerpo:enorme', { cuerpo: con({ ...campos(), [campo]: enorme() }) });
  }
  if (esForm) casosDeFormulario(op, azar, caso, campos, archivo);
  else {
    for (const b of JSON_ROTOS) caso('json:roto', { cuerpo: b });
    for (const t of NO_OBJETOS) caso('json:no-objeto', { cuerpo: Buffer.from(t) });
    caso('json:como-formulario', { tipo: 'application/x-www-form-urlencoded', cuerpo: Buffer.from('email=a%00b&password[]=1') });
    caso('json:como-multipart', {
      tipo: `multipart/form-data; boundary=${BOUNDARY}`,
      cuerpo: multipart(partesDe(campos(), archivo), BOUNDARY).bytes,
    });
  }
}

/** Multipart's own ways of being wrong, including bodies cut short and sockets abandoned. */
function casosDeFormulario(op: Operacion, azar: Azar, caso: HacerCaso, campos: () => Record<string, unknown>, archivo: Archivo): void {
  const tipo = `multipart/form-data; boundary=${BOUNDARY}`;
  const completo = () => multipart(partesDe(campos(), archivo), BOUNDARY);
  for (const raro of ARCHIVOS_RAROS) caso('multipart:archivo-raro', { cuerpo: cuerpoPlausible(op, campos(), raro) });
  for (const nombre of azar.algunos(NOMBRES_RAROS, 4)) {
    caso('multipart:nombre-de-archivo', { cuerpo: cuerpoPlausible(op, campos(), { ...archivo, nombre }) });
  }
  const partes = partesDe(campos(), archivo);
  caso('multipart:campos-repetidos', { cuerpo: multipart([...partes, ...partes], BOUNDARY).bytes });
  caso('multipart:parte-sin-nombre', {
    cuerpo: Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n`), completo().bytes]),
  });
  caso('multipart:cabecera-rota', {
    cuerpo: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data; name=\r\nbasura sin dos puntos\r\n\r\nx\r\n`),
      completo().bytes,
    ]),
  });
  caso('multipart:sin-boundary', { tipo: 'multipart/form-data', cuerpo: completo().bytes });
  caso('multipart:boundary-distinto', { tipo: 'multipart/form-data; boundary=otroLimite', cuerpo: completo().bytes });
  caso('multipart:boundary-largo', { tipo: `multipart/form-data; boundary=${'b'.repeat(200)}`, cuerpo: completo().bytes });
  caso('multipart:como-urlencoded', {
    tipo: 'application/x-www-form-urlencoded',
    cuerpo: Buffer.from('titulo=a%00b&id=99999999999999999999&x=%E0%A4%A'),
  });
  caso('multipart:como-json', { tipo: 'application/json', cuerpo: json(campos()) });
  caso('multipart:sin-cierre', { tipo, cuerpo: multipart(partes, BOUNDARY, false).bytes });

  // Cut inside the file part (after its headers, halfway through it) or, in a form without a
  // file, halfway through the body; then the same announced whole, abandoned or half-closed.
  const form = completo();
  const { inicio, fin } = form.archivo ?? { inicio: Math.floor(form.bytes.length / 2), fin: form.bytes.length };
  const mitad = Math.max(inicio + 1, Math.floor((inicio + fin) / 2));
  if (form.archivo) caso('multipart:cortado-tras-cabeceras', { tipo, cuerpo: form.bytes.subarray(0, inicio) });
  caso('multipart:cortado-a-mitad', { tipo, cuerpo: form.bytes.subarray(0, mitad) });
  caso('multipart:socket-destruido', { tipo, cuerpo: form.bytes, corte: { bytes: inicio + 2, modo: 'destruir' } }, 'puede');
  caso('multipart:medio-cerrado', { tipo, cuerpo: form.bytes, corte: { bytes: mitad, modo: 'cerrar' } }, 'puede');
  caso('multipart:cortado-en-cabeceras', { tipo, cuerpo: form.bytes.subarray(0, 30) });
  // A size far over any limit: the server must refuse it (413) without waiting for it.
  caso('multipart:longitud-enorme', { tipo, cuerpo: form.bytes.subarray(0, 200), declarado: 10 * 1024 ** 3 });
}

function autorizacion(actor: Actor): Record<string, string> {
  return actor.token ? { authorization: `Bearer ${actor.token}` } : {};
}

function tipoPlausible(op: Operacion): string | null {
  if (!op.cuerpo) return null;
  return op.cuerpo.tipo === 'application/json' ? 'application/json' : `multipart/form-data; boundary=${BOUNDARY}`;
}

function cuerpoPlausible(op: Operacion, valores: Record<string, unknown>, archivo: Archivo): Buffer | undefined {
  if (!op.cuerpo) return undefined;
  if (op.cuerpo.tipo === 'application/json') return json(valores);
  return multipart(partesDe(valores, archivo), BOUNDARY).bytes;
}

function segmentoPlausible(nombre: string, esquema: Esquema, azar: Azar, conocidos: Conocidos): string {
  if (nombre === 'file') return 'index.m3u8';
  if (nombre === 'token') return azar.entero(1, 1e9).toString(16).padStart(32, 'a');
  if (nombre === 'nombre') return enUrl('Matemática');
  return enUrl(String(plausible(esquema, nombre, azar, conocidos)));
}

/** Methods no operation documents on a path, and paths under the API that do not exist. */
export function casosSinRuta(plantillas: readonly string[], actor: Actor, azar: Azar): Caso[] {
  const casos: Caso[] = [];
  const de = (clase: string, metodo: string, ruta: string) =>
    casos.push({ op: 'sin-ruta', rol: actor.rol, clase, metodo, ruta, cabeceras: autorizacion(actor), respuesta: 'debe' });
  for (const plantilla of plantillas) {
    const ruta = plantilla.replace(/\{(\w+)\}/g, '1');
    de('metodo:no-documentado', 'PATCH', ruta);
    de('metodo:options', 'OPTIONS', ruta);
  }
  const inexistentes = [
    '/api/nada/',
    '/api/capsulas/1/otra/',
    '/api/..%2f..%2fetc%2fpasswd',
    '/api/%2e%2e/%2e%2e/etc/passwd',
    '/api/../../../etc/passwd',
    '/api/capsulas/%00/',
    '/api/%ED%A0%80/',
    '/api/%',
    '/auth/nada/',
    '/auth/login/%2e%2e/',
    '/streaming/1/../../../etc/passwd',
    '/streaming/1/..%2f..%2f..%2fetc%2fpasswd',
    '/streaming/1/',
    '/streaming/',
    '/miniaturas/',
    '/miniaturas/capsulas/',
    '/miniaturas/usuarios/..%2f1',
    `/api/${'a/'.repeat(500)}`,
    '/api//capsulas//',
    '/api/capsulas/?pagina=1#frag',
  ];
  for (const ruta of inexistentes)
    for (const metodo of azar.algunos(['GET', 'POST', 'PUT', 'DELETE'], 2)) de('ruta:inexistente', metodo, ruta);
  return casos;
}

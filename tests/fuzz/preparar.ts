/**
 * The world a fuzz run starts from, made through the API as people would: the admin of
 * tests/support/server.ts signs in, invites a teacher (activated through the mailed link), and
 * together they make a forum category, a conversation with a comment and a manual with a comment,
 * so mutated requests can name things that exist.
 */
import sharp from 'sharp';
import { signIn } from '../support/client.ts';
import { pdf } from '../support/pdf.ts';
import { ADMIN, lastLinkTo, type RunningServer } from '../support/server.ts';
import type { Actor, Mundo } from './casos.ts';
import type { Operacion } from './contrato.ts';

const DOCENTE = { email: 'fuzz.docente@colegio.cl', password: 'Docente12345' };

async function llamar(server: RunningServer, token: string, metodo: string, ruta: string, cuerpo: unknown | FormData): Promise<unknown> {
  const res = await fetch(`${server.url}${ruta}`, {
    method: metodo,
    headers: { authorization: `Bearer ${token}`, ...(cuerpo instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: cuerpo instanceof FormData ? cuerpo : JSON.stringify(cuerpo),
  });
  const texto = await res.text();
  if (!res.ok) throw new Error(`fuzz setup: ${metodo} ${ruta} answered ${res.status}: ${texto}`);
  return texto ? JSON.parse(texto) : undefined;
}

const idDe = (v: unknown): number => {
  const id = (v as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number') throw new Error(`fuzz setup: no id in ${JSON.stringify(v)}`);
  return id;
};

function formulario(campos: Record<string, string>, archivo: { bytes: Buffer; nombre: string; tipo: string }): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(campos)) form.append(k, v);
  form.set('archivo', new Blob([new Uint8Array(archivo.bytes)], { type: archivo.tipo }), archivo.nombre);
  return form;
}

export async function preparar(server: RunningServer): Promise<Mundo> {
  const admin = await signIn(server.url, ADMIN);
  await llamar(server, admin.access, 'POST', '/api/admin/usuarios/', {
    email: DOCENTE.email,
    nombres: 'Docente',
    apellidos: 'Fuzz Prueba',
  });
  const token = new URL(await lastLinkTo(server.dataDir, DOCENTE.email)).pathname.split('/').filter(Boolean).at(-1) ?? '';
  await llamar(server, admin.access, 'POST', '/api/usuarios/activar-cuenta/', {
    token: decodeURIComponent(token),
    password: DOCENTE.password,
    password_confirmation: DOCENTE.password,
    acepta_privacidad: true,
  });
  const docente = await signIn(server.url, DOCENTE);

  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer();
  const imagen = { bytes: png, nombre: 'categoria.png', tipo: 'image/png' };
  const manualPdf = { bytes: pdf(), nombre: 'manual.pdf', tipo: 'application/pdf' };
  /** POST as that person; the id of what it made. */
  const crear = async (token: string, ruta: string, cuerpo: unknown) => idDe(await llamar(server, token, 'POST', ruta, cuerpo));
  const categoria = await crear(
    admin.access,
    '/api/foro/categorias/',
    formulario({ nombre: 'Fuzz', descripcion: 'Categoría del fuzz', activa: 'true' }, imagen),
  );
  const conversacion = await crear(docente.access, '/api/foro/conversacion/nueva/', {
    id_usuario: docente.usuarioId,
    id_categoria: categoria,
    titulo: 'Conversación del fuzz',
    contenido: 'Contenido **de prueba**',
  });
  const comentarioForo = await crear(docente.access, '/api/foro/conversacion/comentar/', {
    id_conversacion: conversacion,
    id_categoria: categoria,
    contenido: 'Un comentario',
    comentario_padre: null,
  });
  const manual = await crear(
    admin.access,
    '/api/manuales/',
    formulario({ titulo: 'Manual fuzz', descripcion: 'Descripción', id_area: '1' }, manualPdf),
  );
  const comentarioManual = await crear(docente.access, '/api/manuales/comentarios/', {
    id_usuario: docente.usuarioId,
    id_recurso: manual,
    tipo_recurso: 'id_manual',
    contenido: 'Comentario del manual',
  });

  const actores: Actor[] = [
    { rol: 'anonimo' },
    { rol: 'docente', token: docente.access, id: docente.usuarioId },
    { rol: 'admin', token: admin.access, id: admin.usuarioId },
  ];
  return {
    actores,
    ids: { categoria, conversacion, comentarioForo, manual, comentarioManual },
    // Uploads that may succeed get a tiny real file; nothing the suite sends is a video.
    archivoValido: (op: Operacion) => (/usuarios|categorias/.test(op.plantilla) ? imagen : manualPdf),
  };
}

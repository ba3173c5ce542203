/**
 * The content `npm run budgets` measures the detail pages of a fresh install with, made through
 * the API (typed by openapi.yaml) as the admin: an activated teacher (so the contact pages show
 * their form, not 'not found'), a forum category with a conversation and a comment, a manual, a
 * library material (with its OA) and a processed capsule.
 *
 * A sample that cannot be made stops the run with the server's answer: a page measured without
 * its content, or not measured at all, would keep its budget for the wrong reason.
 */
import { type ApiClient, apiClient, type Session } from '../../tests/support/client.ts';
import { multipart } from '../../tests/support/form.ts';
import { pdf } from '../../tests/support/pdf.ts';
import { lastLinkTo } from '../../tests/support/server.ts';
import { video } from '../../tests/support/video.ts';

export interface Muestras {
  adminId: number;
  /** A teacher invited and activated for the run. */
  teacherId: number;
  foro: { categoriaId: number; conversacionId: number };
  manualId: number;
  material: { id: number; oa: string };
  capsulaId: number;
}

/** The sample material's title, for its public page's address (issue 34). */
export const MATERIAL_DE_MUESTRA = 'Material de muestra';

export const SAMPLE_TEACHER = { email: 'docente.presupuestos@example.cl', password: 'Muestra2026' };
/** A 1x1 PNG: the server crops any category image to 640x360. */
const SAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const DESCRIPCION = 'Un texto de **muestra** con una lista:\n\n- uno\n- dos\n\ny un [enlace](https://example.cl).';
/** ffmpeg shares the machine with the server's other work: the sample video may take a while. */
const PROCESSING_MS = 180_000;

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; otherwise an error that names the sample and quotes the server. */
function made<T>(sample: string, { data, error, response }: Answer<T>): T {
  if (data === undefined) {
    const path = new URL(response.url).pathname;
    throw new Error(`Could not make the ${sample} sample: ${path} answered HTTP ${response.status}: ${JSON.stringify(error)}`);
  }
  return data;
}

/** The first item of a successful list answer (the fresh install's catalogues are never empty). */
function first<T>(sample: string, answer: Answer<T[]>): T {
  const item = made(sample, answer)[0];
  if (item === undefined) throw new Error(`Could not make the ${sample} sample: ${new URL(answer.response.url).pathname} listed nothing.`);
  return item;
}

export async function crearMuestras(baseUrl: string, dataDir: string, session: Session): Promise<Muestras> {
  const api = apiClient(baseUrl, session.access);
  return {
    adminId: session.usuarioId,
    teacherId: await docenteActivo(baseUrl, dataDir, api),
    foro: await foro(api, session.usuarioId),
    ...(await contenido(api)),
  };
}

/** Invites the sample teacher and activates the account with the mailed link, as a person would. */
export async function docenteActivo(baseUrl: string, dataDir: string, api: ApiClient): Promise<number> {
  const { usuario } = made(
    'teacher',
    await api.POST('/api/admin/usuarios/', {
      body: { email: SAMPLE_TEACHER.email, nombres: 'Docente', apellidos: 'De Muestra', admin: false },
    }),
  );
  const token = new URL(await lastLinkTo(dataDir, SAMPLE_TEACHER.email)).pathname.split('/').filter(Boolean).at(-1) ?? '';
  const { password } = SAMPLE_TEACHER;
  made(
    'teacher activation',
    await apiClient(baseUrl).POST('/api/usuarios/activar-cuenta/', {
      body: { token, password, password_confirmation: password, acepta_privacidad: true },
    }),
  );
  return usuario.id;
}

/** A forum category with a conversation and a comment, as the forum's pages show them. */
async function foro(api: ApiClient, adminId: number): Promise<Muestras['foro']> {
  const categoria = made(
    'forum category',
    await api.POST('/api/foro/categorias/', {
      body: { nombre: 'Categoría de muestra', descripcion: 'Para medir las páginas del foro', activa: true, archivo: 'muestra.png' },
      bodySerializer: multipart({ data: Buffer.from(SAMPLE_PNG, 'base64'), name: 'muestra.png', type: 'image/png' }),
    }),
  );
  const conversacion = made(
    'forum conversation',
    await api.POST('/api/foro/conversacion/nueva/', {
      body: {
        id_usuario: adminId,
        id_categoria: categoria.id,
        titulo: 'Conversación de muestra',
        contenido: 'Un párrafo con **negrita**, una lista:\n\n- uno\n- dos\n\ny un [enlace](https://example.cl).',
      },
    }),
  );
  made(
    'forum comment',
    await api.POST('/api/foro/conversacion/comentar/', {
      body: { id_conversacion: conversacion.id, id_categoria: categoria.id, contenido: 'Un comentario de muestra', comentario_padre: null },
    }),
  );
  return { categoriaId: categoria.id, conversacionId: conversacion.id };
}

/** A unit of the area and level that has learning objectives, with its first OA. */
async function unidadConOa(api: ApiClient, area: number, nivel: string) {
  const unidades = made('material', await api.GET('/api/curriculum_escolar/unidades/', { params: { query: { area, nivel } } }));
  for (const unidad of unidades) {
    const oa = made('material', await api.GET('/api/curriculum_escolar/oas/', { params: { query: { unidad: unidad.id } } }))[0];
    if (oa) return { unidad, oa };
  }
  throw new Error(`Could not make the material sample: no unit of area ${area}, level ${nivel} has learning objectives.`);
}

/** A manual, a library material and a capsule of Mathematics, the capsule's video processed. */
async function contenido(api: ApiClient): Promise<Pick<Muestras, 'manualId' | 'material' | 'capsulaId'>> {
  const areas = made('content', await api.GET('/api/curriculum_escolar/areas/'));
  const area = areas.find((a) => a.nombre === 'Matemática');
  if (!area) throw new Error(`Could not make the content samples: no area 'Matemática' among ${areas.length} areas.`);
  const nivel = first('content', await api.GET('/api/curriculum_escolar/niveles/', { params: { query: { area: area.id } } }));
  const comun = { descripcion: DESCRIPCION, id_area: area.id };

  const manual = made(
    'manual',
    await api.POST('/api/manuales/', {
      body: { ...comun, titulo: 'Manual de muestra', extension: 'pdf', archivo: 'muestra.pdf' },
      bodySerializer: multipart({ data: pdf(2), name: 'muestra.pdf', type: 'application/pdf' }),
    }),
  );

  const { unidad, oa } = await unidadConOa(api, area.id, nivel.codigo);
  const tipo = first('material', await api.GET('/api/bdocente/tipo/'));
  const material = made(
    'material',
    await api.POST('/api/bdocente/', {
      body: {
        ...comun,
        titulo: MATERIAL_DE_MUESTRA,
        extension: 'pdf',
        id_nivel: nivel.codigo,
        id_unidad: unidad.id,
        oas: [oa.id],
        tipo_material_docente: tipo.id,
        archivo: 'muestra.pdf',
      },
      bodySerializer: multipart({ data: pdf(1), name: 'muestra.pdf', type: 'application/pdf' }),
    }),
  );

  const metodologia = first('capsule', await api.GET('/api/metodologias/'));
  const capsula = made(
    'capsule',
    await api.POST('/api/capsulas/', {
      body: {
        ...comun,
        titulo: 'Cápsula de muestra',
        extension: 'mp4',
        id_metodologia: metodologia.id,
        id_nivel: nivel.codigo,
        archivo: 'muestra.mp4',
      },
      bodySerializer: multipart({ data: await video({ seconds: 2 }), name: 'muestra.mp4', type: 'video/mp4' }),
    }),
  );
  await procesada(api, capsula.id);

  return { manualId: manual.id, material: { id: material.id, oa: oa.codigo }, capsulaId: capsula.id };
}

/** Waits until the capsule leaves 'Capsulas procesando': its detail page then shows the player. */
async function procesada(api: ApiClient, id: number): Promise<void> {
  const limite = Date.now() + PROCESSING_MS;
  for (;;) {
    const { capsulas } = made('capsule', await api.GET('/api/capsulas/procesando'));
    const capsula = capsulas.find((c) => c.id === id);
    if (!capsula) return;
    if (capsula.estado === 'error') throw new Error(`The capsule sample's video could not be processed (estado 'error').`);
    if (Date.now() > limite) throw new Error(`The capsule sample was still processing after ${PROCESSING_MS / 1000} s.`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Makes the sample material public with CC BY 4.0 (issue 34), so it has a public page: for the
 * budgets and Lighthouse, which measure that page as an anonymous visitor sees it.
 */
export async function publicarMaterial(api: ApiClient, id: number): Promise<void> {
  const m = made('the sample material', await api.GET('/api/bdocente/{id}/', { params: { path: { id } } }));
  const { response, error } = await api.PUT('/api/bdocente/', {
    body: {
      id,
      titulo: m.titulo,
      descripcion: m.descripcion,
      id_area: m.id_area.id,
      id_nivel: m.id_nivel.codigo,
      id_unidad: m.id_unidad.id,
      oas: m.oas.map((o) => o.id),
      tipo_material_docente: m.tipo_material_docente.id,
      licencia: 'CC-BY-4.0',
      visibilidad: 'publico',
    },
  });
  if (response.status !== 204) throw new Error(`the sample material could not be made public: ${response.status} ${JSON.stringify(error)}`);
}

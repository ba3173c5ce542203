/**
 * The admin console's calls (issue 16), through the one API client. The client arrives when an
 * island is first used (`precargar`), not with the page, so the lists stay light. No call throws:
 * a network failure is a failed call, and a refusal keeps the server's Spanish sentence.
 */
import type { components } from '../../lib/api/schema';
import { cargaUnica } from '../comun/carga';
import { multipart } from '../comun/multipart';

export type Invitacion = components['schemas']['UsuarioAdminEntrada'];

type Errores = Record<string, string[]>;
type Lineas = components['schemas']['LineaConError'][];
export type Resultado<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; detalle: string; errores?: Errores | undefined; lineas?: Lineas | undefined };

export const SIN_CONEXION = 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.';
const INESPERADO = 'No se pudo completar la acción. Inténtalo nuevamente.';

const cargarCliente = cargaUnica(() => import('../../lib/api/client'));
export const precargar = () => void cargarCliente().catch(() => undefined);

type Cliente = Awaited<ReturnType<typeof cargarCliente>>['api'];
interface Respuesta<T> {
  data?: T;
  error?: { detail?: string; errors?: Errores; lineas?: Lineas } | undefined;
  response: Response;
}

async function llamar<T>(ok: number, pedir: (api: Cliente) => Promise<Respuesta<T>>): Promise<Resultado<T>> {
  try {
    const { api } = await cargarCliente();
    const { data, error, response } = await pedir(api);
    if (response.status === ok) return { ok: true, data: data as T };
    return { ok: false, status: response.status, detalle: error?.detail ?? INESPERADO, errores: error?.errors, lineas: error?.lineas };
  } catch {
    return { ok: false, status: 0, detalle: SIN_CONEXION };
  }
}

export const invitar = (datos: Invitacion) => llamar(201, (api) => api.POST('/api/admin/usuarios/', { body: datos }));

export const actualizarUsuario = (id: number, cambios: { activo?: boolean; admin?: boolean; colegio?: string }) =>
  llamar(200, (api) => api.PATCH('/api/admin/usuarios/{id}/', { params: { path: { id } }, body: cambios }));

export const reenviarActivacion = (id: number) =>
  llamar(200, (api) => api.POST('/api/admin/usuarios/{id}/reenviar-activacion/', { params: { path: { id } } }));

/** A lost phone (issue 32): the person's second factor, recovery codes and remembered devices go. */
export const reiniciarSegundoFactor = (id: number) =>
  llamar(200, (api) => api.DELETE('/api/admin/usuarios/{id}/totp/', { params: { path: { id } } }));

/** The roster as multipart: the generated type of a binary field is a string, so the body names the file. */
export const importar = (archivo: File, confirmar: boolean) =>
  llamar(200, (api) =>
    api.POST('/api/admin/usuarios/importar/', {
      body: { archivo: archivo.name, confirmar: confirmar ? 'true' : 'false' },
      bodySerializer: () => multipart({ confirmar, archivo }),
    }),
  );

export type Importacion = Extract<Awaited<ReturnType<typeof importar>>, { ok: true }>['data'];

export const reintentarTrabajo = (id: number) =>
  llamar(200, (api) => api.POST('/api/admin/trabajos/{id}/reintentar/', { params: { path: { id } } }));

/** A backup made now (issue 28); answers when it is complete. */
export const crearRespaldo = () => llamar(201, (api) => api.POST('/api/admin/respaldos/'));

export const reintentarCorreo = (id: number) =>
  llamar(200, (api) => api.POST('/api/admin/correos/{id}/reintentar/', { params: { path: { id } } }));

/** The moderation queue's decision on a reported item (issue 17): every open report of it at once. */
export const resolverDenuncia = (id: number, decision: components['schemas']['ResolucionDenuncia']) =>
  llamar(200, (api) => api.POST('/api/admin/denuncias/{id}/resolver/', { params: { path: { id } }, body: decision }));

// ── The curriculum (issue 30) ────────────────────────────────────────────────────────────────────

export type ArbolPar = components['schemas']['ParCurriculoAdmin'];

/** One pair's units and OAs, retired ones included, as the tree shows them. */
export const arbolDe = (area: string, nivel: string) =>
  llamar(200, (api) => api.GET('/api/admin/curriculo/{area}/{nivel}/', { params: { path: { area, nivel } } }));

export const crearUnidad = (unidad: components['schemas']['UnidadCurriculoNueva']) =>
  llamar(201, (api) => api.POST('/api/admin/curriculo/unidades/', { body: unidad }));

export const actualizarUnidad = (id: number, cambios: components['schemas']['UnidadCurriculoCambio']) =>
  llamar(200, (api) => api.PUT('/api/admin/curriculo/unidades/{id}/', { params: { path: { id } }, body: cambios }));

/** Deletes an empty unit no material uses; 409 (with the server's sentence) otherwise. */
export const eliminarUnidad = (id: number) =>
  llamar(204, (api) => api.DELETE('/api/admin/curriculo/unidades/{id}/', { params: { path: { id } } }));

export const actualizarOa = (id: number, cambios: components['schemas']['OaCurriculoCambio']) =>
  llamar(200, (api) => api.PUT('/api/admin/curriculo/oas/{id}/', { params: { path: { id } }, body: cambios }));

/** A curriculum file as multipart, as `importar` sends a roster. */
export const importarCurriculo = (archivo: File, confirmar: boolean) =>
  llamar(200, (api) =>
    api.POST('/api/admin/curriculo/importar/', {
      body: { archivo: archivo.name, confirmar: confirmar ? 'true' : 'false' },
      bodySerializer: () => multipart({ confirmar, archivo }),
    }),
  );

export type ImportacionCurriculo = components['schemas']['ImportacionCurriculo'];
export type ErroresImportacion = Lineas;

/** A refused import's lines with errors, when the refusal carries them (a 400 on confirming). */
export const informeImportacion = (r: { lineas?: Lineas | undefined }) => (r.lineas && r.lineas.length > 0 ? r.lineas : null);

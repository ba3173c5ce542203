/**
 * The contact call (docs/SPEC.md section 7): the path id and the sender are the signed-in user. On a
 * refusal the server's Spanish sentence is kept (e.g. the hourly limit), so the person knows why.
 * The API client arrives when the form is first used (`precargarEnvio`), not with the page: the
 * page then stays well within the script budget of docs/DESIGN.md.
 */
import type { ContactoInput } from '../../lib/validation/cuentas';
import { cargaUnica } from '../comun/carga';

export type Envio = { ok: true } | { ok: false; detalle?: string | undefined; status?: number };

const cargarCliente = cargaUnica(() => import('../../lib/api/client'));

export const precargarEnvio = () => void cargarCliente().catch(() => undefined);

export async function enviarContacto(idUsuario: number, idDestinatario: number, datos: ContactoInput): Promise<Envio> {
  try {
    const { api } = await cargarCliente();
    const { response, error } = await api.POST('/api/usuarios/{id}/enviar-email/', {
      params: { path: { id: idUsuario } },
      body: { id_usuario_sender: idUsuario, id_usuario_receiver: idDestinatario, ...datos },
    });
    if (response.status === 200) return { ok: true };
    return { ok: false, detalle: error?.detail, status: response.status };
  } catch {
    return { ok: false };
  }
}

/** The help-centre call (docs/SPEC.md section 7): true when the server answered 200. */
import { api } from '../../lib/api/client';
import type { AyudaInput } from '../../lib/validation/cuentas';

export async function enviarAyuda(idUsuario: number, datos: AyudaInput): Promise<boolean> {
  try {
    const { response } = await api.POST('/api/usuarios/{id}/enviar-email-ayuda/', {
      params: { path: { id: idUsuario } },
      body: { id_usuario_sender: idUsuario, ...datos },
    });
    return response.status === 200;
  } catch {
    return false;
  }
}

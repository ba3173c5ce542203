/**
 * The actions on one account of /admin/usuarios (issue 16): resend the activation link (pending
 * accounts), deactivate or reactivate, grant or remove 'admin', change the school, reset the
 * second factor (issue 32). Deactivating, removing 'admin' and the reset ask first. The server decides what is allowed (never the last admin) and
 * its Spanish sentence is shown when it refuses; after a change the page reloads with the row as
 * the database now holds it.
 */
import { type ReactNode, type SubmitEvent, useState } from 'react';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from '../comun/Campo';
import { Modal } from '../comun/Modal';
import { actualizarUsuario, type Resultado, reenviarActivacion, reiniciarSegundoFactor } from './api';

export interface AccionesUsuarioProps {
  id: number;
  email: string;
  nombre: string;
  estado: 'activa' | 'pendiente' | 'desactivada';
  admin: boolean;
  colegio: string;
  /** The signed-in admin's own account. */
  propia: boolean;
  /** The account has a second factor (issue 32), which an admin may reset. */
  segundoFactor?: boolean;
}

type Dialogo = 'desactivar' | 'quitar-admin' | 'colegio' | 'segundo-factor' | null;

export default function AccionesUsuario({ id, email, nombre, estado, admin, colegio, propia, segundoFactor }: AccionesUsuarioProps) {
  const hidratado = useHidratado();
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const [ocupado, setOcupado] = useState(false);
  const [nuevoColegio, setNuevoColegio] = useState(colegio);

  async function hacer(accion: () => Promise<Resultado<unknown>>, exito: string) {
    setOcupado(true);
    const r = await accion();
    setOcupado(false);
    if (!r.ok) {
      notificar(r.detalle, 'error');
      return;
    }
    setDialogo(null);
    notificar(exito, 'exito');
    window.location.reload();
  }

  const cambiar = (cambios: { activo?: boolean; admin?: boolean; colegio?: string }, exito: string) =>
    hacer(() => actualizarUsuario(id, cambios), exito);

  function guardarColegio(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    cambiar({ colegio: nuevoColegio.trim() }, `Se cambió el colegio de ${email}`);
  }

  const deshabilitado = !hidratado || ocupado;
  const cerrar = () => !ocupado && setDialogo(null);
  const cancelar = (
    <button type="button" className="secundario" disabled={ocupado} onClick={cerrar}>
      Cancelar
    </button>
  );
  /** A destructive change asks first: the dialog names the account and what follows. */
  const confirmacion = (cual: Dialogo, titulo: string, boton: string, confirmar: () => void, pregunta: ReactNode) => (
    <Modal
      abierto={dialogo === cual}
      titulo={titulo}
      onCerrar={cerrar}
      pie={
        <>
          {cancelar}
          <button type="button" className="peligro" disabled={ocupado} aria-busy={ocupado || undefined} onClick={confirmar}>
            {boton}
          </button>
        </>
      }
    >
      {pregunta}
    </Modal>
  );

  return (
    <div className="acciones-fila">
      {estado === 'pendiente' && (
        <button
          type="button"
          className="secundario"
          disabled={deshabilitado}
          aria-label={`Reenviar activación a ${email}`}
          onClick={() => hacer(() => reenviarActivacion(id), `Se envió un nuevo enlace de activación a ${email}`)}
        >
          Reenviar activación
        </button>
      )}
      {estado === 'desactivada' ? (
        <button
          type="button"
          className="secundario"
          disabled={deshabilitado}
          aria-label={`Reactivar la cuenta de ${email}`}
          onClick={() => cambiar({ activo: true }, `Se reactivó la cuenta de ${email}`)}
        >
          Reactivar
        </button>
      ) : (
        !propia && (
          <button
            type="button"
            className="secundario peligro"
            disabled={deshabilitado}
            aria-label={`Desactivar la cuenta de ${email}`}
            onClick={() => setDialogo('desactivar')}
          >
            Desactivar
          </button>
        )
      )}
      {admin ? (
        <button
          type="button"
          className="secundario peligro"
          disabled={deshabilitado}
          aria-label={`Quitar admin a ${email}`}
          onClick={() => setDialogo('quitar-admin')}
        >
          Quitar admin
        </button>
      ) : (
        <button
          type="button"
          className="secundario"
          disabled={deshabilitado}
          aria-label={`Hacer admin a ${email}`}
          onClick={() => cambiar({ admin: true }, `${email} ahora es administrador`)}
        >
          Hacer admin
        </button>
      )}
      <button
        type="button"
        className="secundario"
        disabled={deshabilitado}
        aria-label={`Cambiar colegio de ${email}`}
        onClick={() => setDialogo('colegio')}
      >
        Cambiar colegio
      </button>
      {segundoFactor && !propia && (
        <button
          type="button"
          className="secundario peligro"
          disabled={deshabilitado}
          aria-label={`Reiniciar la verificación en dos pasos de ${email}`}
          onClick={() => setDialogo('segundo-factor')}
        >
          Reiniciar verificación en dos pasos
        </button>
      )}

      {confirmacion(
        'desactivar',
        'Desactivar cuenta',
        'Desactivar',
        () => cambiar({ activo: false }, `Se desactivó la cuenta de ${email}`),
        <p>
          ¿Desactivar la cuenta de <strong>{nombre}</strong> ({email})? No podrá ingresar y sus sesiones abiertas terminan de inmediato. Lo
          que publicó se mantiene a su nombre. Puedes reactivarla cuando quieras.
        </p>,
      )}
      {confirmacion(
        'quitar-admin',
        'Quitar admin',
        'Quitar admin',
        () => cambiar({ admin: false }, `${email} ya no es administrador`),
        <p>
          ¿Quitar el rol de administrador a <strong>{nombre}</strong> ({email})?{' '}
          {propia ? 'Es tu propia cuenta: perderás el acceso a esta consola.' : 'Ya no podrá usar esta consola.'}
        </p>,
      )}

      {confirmacion(
        'segundo-factor',
        'Reiniciar verificación en dos pasos',
        'Reiniciar',
        () => hacer(() => reiniciarSegundoFactor(id), `Se reinició la verificación en dos pasos de ${email}`),
        <p>
          ¿Reiniciar la verificación en dos pasos de <strong>{nombre}</strong> ({email})? Podrá ingresar solo con su contraseña hasta que la
          vuelva a activar, y los equipos recordados se olvidan. Hazlo solo si confirmaste que es la persona (por ejemplo, perdió su
          teléfono). Queda en el registro.
        </p>,
      )}

      <Modal abierto={dialogo === 'colegio'} titulo="Cambiar colegio" onCerrar={cerrar}>
        <form onSubmit={guardarColegio}>
          <label htmlFor={`colegio-${id}`}>Colegio de {nombre}</label>
          <input
            id={`colegio-${id}`}
            value={nuevoColegio}
            maxLength={150}
            autoComplete="off"
            onChange={(e) => setNuevoColegio(e.target.value)}
          />
          <footer>
            {cancelar}
            <button type="submit" disabled={ocupado} aria-busy={ocupado || undefined}>
              Guardar
            </button>
          </footer>
        </form>
      </Modal>
    </div>
  );
}

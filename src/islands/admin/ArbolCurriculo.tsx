/**
 * The units and OAs of one (asignatura, nivel) in /admin/curriculo (issue 30), with the edits an
 * admin makes on them: create, rename, reorder, retire or restore and delete a unit; move an OA to
 * another unit, reorder it, retire or restore it. Each change calls the API and then reads the
 * pair again, so the tree shows what the database holds, without reloading the page. The server
 * decides what is allowed (a unit that materials use is not deleted: it can be retired) and its
 * Spanish sentence is shown when it refuses.
 *
 * The page sends the tree once, as the server's HTML (`children`, PartesArbol.tsx's VistaArbol
 * with its buttons disabled), not also as props: the island shows that HTML until it has read the
 * pair itself. Buttons are never disabled while a call is out (focus would fall to the page): a
 * click then does nothing. A move button at the end of its list is aria-disabled, so it keeps its
 * place.
 */
import { type ReactNode, type SubmitEvent, useEffect, useState } from 'react';
import { $curriculoImportado } from '../../lib/stores/curriculo';
import { notificar } from '../../lib/stores/notifications';
import { ErrorFormulario } from '../comun/Campo';
import { Modal } from '../comun/Modal';
import { actualizarOa, actualizarUnidad, arbolDe, crearUnidad, eliminarUnidad, precargar, type Resultado } from './api';
import { type AccionesArbol, ConfirmarEliminar, type Oa, type Unidad, VistaArbol } from './PartesArbol';

type Dialogo =
  | { tipo: 'nueva' }
  | { tipo: 'renombrar'; unidad: Unidad }
  | { tipo: 'eliminar'; unidad: Unidad; usada?: string }
  | { tipo: 'mover'; oa: Oa; desde: Unidad }
  | null;

export interface ArbolCurriculoProps {
  /** The area's and the level's codes ('HI', '05'). */
  area: string;
  nivel: string;
  /** The pair's name as the page writes it ('Historia, Geografía y Ciencias Sociales, 5° básico'). */
  titulo: string;
  /** The tree as the server rendered it, shown until the island has read the pair. */
  children?: ReactNode;
}

export default function ArbolCurriculo({ area, nivel, titulo, children }: ArbolCurriculoProps) {
  const [unidades, setUnidades] = useState<Unidad[] | null>(null);
  const [destino, setDestino] = useState(0);
  const [ocupado, setOcupado] = useState(false);
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const [nombre, setNombre] = useState('');
  /** Why the open dialog's change was refused: said inside it, not in a toast behind its backdrop. */
  const [rechazo, setRechazo] = useState<string | null>(null);
  // Where the focus goes when the change took the focused button away (a moved OA, a deleted unit).
  const [foco, setFoco] = useState<string | null>(null);

  useEffect(() => {
    if (!foco) return;
    const activo = document.activeElement;
    if (!activo || activo === document.body) document.getElementById(foco)?.focus();
    setFoco(null);
  }, [foco]);

  // Once on hydration, and again when an import applied on this page may have changed the pair.
  useEffect(() => {
    const leer = () => arbolDe(area, nivel).then((r) => (r.ok ? setUnidades(r.data.unidades) : notificar(r.detalle, 'error')));
    leer();
    return $curriculoImportado.listen(() => void leer());
  }, [area, nivel]);

  /** One change: the call, then the pair read again; `enfocar` is the id of what takes a lost focus. */
  async function cambiar(accion: () => Promise<Resultado<unknown>>, exito: string, enfocar?: string): Promise<Resultado<unknown>> {
    if (ocupado) return { ok: false, status: 0, detalle: '' };
    setOcupado(true);
    const r = await accion();
    if (r.ok) {
      const nuevo = await arbolDe(area, nivel);
      if (nuevo.ok) setUnidades(nuevo.data.unidades);
      notificar(exito, 'exito');
      if (enfocar) setFoco(enfocar);
    }
    setOcupado(false);
    return r;
  }

  async function hacer(accion: () => Promise<Resultado<unknown>>, exito: string, enfocar?: string) {
    const r = await cambiar(accion, exito, enfocar);
    if (!r.ok && r.detalle) {
      // The delete dialog says its own refusal (in use, 409); a retirement from it fails to a toast.
      if (dialogo && dialogo.tipo !== 'eliminar') setRechazo(r.detalle);
      else notificar(r.detalle, 'error');
    } else if (r.ok) setDialogo(null);
  }

  function abrir(d: Dialogo, nombreInicial = '') {
    setNombre(nombreInicial);
    setRechazo(null);
    setDialogo(d);
  }

  function guardarNombre(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const limpio = nombre.trim();
    if (dialogo?.tipo === 'nueva') hacer(() => crearUnidad({ area, nivel, nombre: limpio }), `Se creó la unidad «${limpio}»`);
    else if (dialogo?.tipo === 'renombrar')
      hacer(() => actualizarUnidad(dialogo.unidad.id, { nombre: limpio }), `Se renombró la unidad: «${limpio}»`);
  }

  async function eliminar(unidad: Unidad) {
    const r = await cambiar(() => eliminarUnidad(unidad.id), `Se eliminó la unidad «${unidad.nombre}»`);
    if (r.ok) {
      // Closing the dialog gives the focus back to a button that is gone: 'Nueva unidad' takes it.
      setDialogo(null);
      setFoco('nueva-unidad');
    }
    // In use: the dialog says why and offers to retire it instead.
    else if (r.status === 409) setDialogo({ tipo: 'eliminar', unidad, usada: r.detalle });
    else if (r.detalle) notificar(r.detalle, 'error');
  }

  const vigenteUnidad = (u: Unidad, vigente: boolean) =>
    hacer(() => actualizarUnidad(u.id, { vigente }), vigente ? `Se restauró la unidad «${u.nombre}»` : `Se retiró la unidad «${u.nombre}»`);

  const acciones: AccionesArbol = {
    renombrar: (u) => abrir({ tipo: 'renombrar', unidad: u }, u.nombre),
    moverUnidad: (u, orden) => hacer(() => actualizarUnidad(u.id, { orden }), `Se movió la unidad «${u.nombre}»`),
    vigenteUnidad,
    eliminar: (u) => abrir({ tipo: 'eliminar', unidad: u }),
    moverOa: (oa, desde) => {
      setDestino(unidades?.find((x) => x.id !== desde.id)?.id ?? 0);
      abrir({ tipo: 'mover', oa, desde });
    },
    cambiarOa: (oa, cambio, exito) => hacer(() => actualizarOa(oa.id, cambio), exito, `oa-${oa.id}`),
  };

  function moverOa(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const elegida = unidades?.find((u) => u.id === destino);
    if (dialogo?.tipo !== 'mover' || !elegida) return;
    const { oa } = dialogo;
    hacer(() => actualizarOa(oa.id, { unidad: elegida.id }), `Se movió ${oa.codigo} a «${elegida.nombre}»`, `oa-${oa.id}`);
  }

  const cerrar = () => !ocupado && setDialogo(null);
  const pie = (boton: string) => (
    <footer>
      <button type="button" className="secundario" disabled={ocupado} onClick={cerrar}>
        Cancelar
      </button>
      <button type="submit" disabled={ocupado} aria-busy={ocupado || undefined}>
        {boton}
      </button>
    </footer>
  );

  return (
    <div className="arbol-curriculo" aria-busy={ocupado || undefined}>
      <div className="acciones-arbol">
        <button
          type="button"
          id="nueva-unidad"
          disabled={!unidades}
          onFocus={precargar}
          onPointerEnter={precargar}
          onClick={() => abrir({ tipo: 'nueva' })}
        >
          Nueva unidad
        </button>
      </div>
      {unidades ? <VistaArbol unidades={unidades} acciones={acciones} /> : children}

      <Modal
        abierto={dialogo?.tipo === 'nueva' || dialogo?.tipo === 'renombrar'}
        titulo={dialogo?.tipo === 'nueva' ? 'Nueva unidad' : 'Renombrar unidad'}
        onCerrar={cerrar}
      >
        <form onSubmit={guardarNombre}>
          {dialogo?.tipo === 'nueva' && <p>La unidad se agrega al final de {titulo}.</p>}
          <label htmlFor="nombre-unidad">Nombre de la unidad</label>
          <input
            id="nombre-unidad"
            value={nombre}
            required
            maxLength={200}
            autoComplete="off"
            onChange={(e) => {
              setNombre(e.target.value);
              setRechazo(null);
            }}
          />
          <ErrorFormulario mensaje={rechazo} />
          {pie(dialogo?.tipo === 'nueva' ? 'Crear unidad' : 'Guardar')}
        </form>
      </Modal>

      <Modal abierto={dialogo?.tipo === 'mover'} titulo="Mover a otra unidad" onCerrar={cerrar}>
        {dialogo?.tipo === 'mover' && (
          <form onSubmit={moverOa}>
            <p>
              <strong>{dialogo.oa.codigo}</strong> está en «{dialogo.desde.nombre}». Pasa al final de la unidad que elijas.
            </p>
            <label htmlFor="destino-oa">Unidad</label>
            <select
              id="destino-oa"
              value={destino}
              onChange={(e) => {
                setDestino(Number(e.target.value));
                setRechazo(null);
              }}
            >
              {unidades
                ?.filter((u) => u.id !== dialogo.desde.id)
                .map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.vigente ? u.nombre : `${u.nombre} (no vigente)`}
                  </option>
                ))}
            </select>
            <ErrorFormulario mensaje={rechazo} />
            {pie('Mover')}
          </form>
        )}
      </Modal>

      {dialogo?.tipo === 'eliminar' && (
        <ConfirmarEliminar
          dialogo={dialogo}
          ocupado={ocupado}
          onCancelar={cerrar}
          onEliminar={eliminar}
          onRetirar={(u) => vigenteUnidad(u, false)}
        />
      )}
    </div>
  );
}

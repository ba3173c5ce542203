/**
 * The units and OAs of one (asignatura, nivel) in /admin/curriculo (issue 30), with the edits an
 * admin makes on them: create, rename, reorder, retire or restore and delete a unit; move an OA to
 * another unit, reorder it, retire or restore it. Each change calls the API and then reads the
 * pair again, so the tree shows what the database holds, without reloading the page. The server
 * decides what is allowed (a unit that materials use is not deleted: it can be retired) and its
 * Spanish sentence is shown when it refuses.
 *
 * Buttons are never disabled while a call is out (focus would fall to the page): a click then
 * does nothing. A move button at the end of its list is aria-disabled, so it keeps its place.
 */
import { useStore } from '@nanostores/react';
import { type ReactNode, type SubmitEvent, useEffect, useState } from 'react';
import { $curriculoImportado } from '../../lib/stores/curriculo';
import { notificar } from '../../lib/stores/notifications';
import { useHidratado } from '../comun/Campo';
import { Confirmacion } from '../comun/Confirmacion';
import { Modal } from '../comun/Modal';
import { type ArbolPar, actualizarOa, actualizarUnidad, arbolDe, crearUnidad, eliminarUnidad, precargar, type Resultado } from './api';

type Unidad = ArbolPar['unidades'][number];
type Oa = Unidad['oas'][number];

type Dialogo = { tipo: 'nueva' } | { tipo: 'renombrar'; unidad: Unidad } | { tipo: 'eliminar'; unidad: Unidad; usada?: string } | null;

export interface ArbolCurriculoProps {
  arbol: ArbolPar;
  /** The pair's name as the page writes it ('Historia, Geografía y Ciencias Sociales, 5° básico'). */
  titulo: string;
}

const plural = (n: number, uno: string, varios: string) => (n === 1 ? `1 ${uno}` : `${n} ${varios}`);

/** A small button of the tree; `inactivo` keeps it focusable but says it does nothing here. */
function Accion(props: {
  etiqueta: string;
  texto: string;
  onClick: () => void;
  inactivo?: boolean;
  peligro?: boolean;
  hidratado: boolean;
}) {
  return (
    <button
      type="button"
      className={props.peligro ? 'secundario peligro' : 'secundario'}
      aria-label={props.etiqueta}
      disabled={!props.hidratado}
      aria-disabled={props.inactivo || undefined}
      onFocus={precargar}
      onPointerEnter={precargar}
      onClick={() => !props.inactivo && props.onClick()}
    >
      {props.texto}
    </button>
  );
}

export default function ArbolCurriculo({ arbol: inicial, titulo }: ArbolCurriculoProps) {
  const hidratado = useHidratado();
  const [arbol, setArbol] = useState(inicial);
  const [ocupado, setOcupado] = useState(false);
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const [nombre, setNombre] = useState('');
  const importado = useStore($curriculoImportado);

  // An import applied on this page may have changed this pair.
  useEffect(() => {
    if (importado === 0) return;
    arbolDe(inicial.area.codigo, inicial.nivel.codigo).then((r) => r.ok && setArbol(r.data));
  }, [importado, inicial.area.codigo, inicial.nivel.codigo]);

  /** One change: the call, then the pair read again. Answers whether it was done. */
  async function cambiar(accion: () => Promise<Resultado<unknown>>, exito: string): Promise<Resultado<unknown>> {
    if (ocupado) return { ok: false, status: 0, detalle: '' };
    setOcupado(true);
    const r = await accion();
    if (r.ok) {
      const nuevo = await arbolDe(arbol.area.codigo, arbol.nivel.codigo);
      if (nuevo.ok) setArbol(nuevo.data);
      notificar(exito, 'exito');
    }
    setOcupado(false);
    return r;
  }

  async function hacer(accion: () => Promise<Resultado<unknown>>, exito: string) {
    const r = await cambiar(accion, exito);
    if (!r.ok && r.detalle) notificar(r.detalle, 'error');
    else if (r.ok) setDialogo(null);
  }

  function abrir(d: Dialogo, nombreInicial = '') {
    setNombre(nombreInicial);
    setDialogo(d);
  }

  function guardarNombre(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const limpio = nombre.trim();
    if (dialogo?.tipo === 'nueva')
      hacer(() => crearUnidad({ area: arbol.area.codigo, nivel: arbol.nivel.codigo, nombre: limpio }), `Se creó la unidad «${limpio}»`);
    else if (dialogo?.tipo === 'renombrar')
      hacer(() => actualizarUnidad(dialogo.unidad.id, { nombre: limpio }), `Se renombró la unidad: «${limpio}»`);
  }

  async function eliminar(unidad: Unidad) {
    const r = await cambiar(() => eliminarUnidad(unidad.id), `Se eliminó la unidad «${unidad.nombre}»`);
    if (r.ok) setDialogo(null);
    // In use: the dialog says why and offers to retire it instead.
    else if (r.status === 409) setDialogo({ tipo: 'eliminar', unidad, usada: r.detalle });
    else if (r.detalle) notificar(r.detalle, 'error');
  }

  const retirarUnidad = (u: Unidad, vigente: boolean) =>
    hacer(() => actualizarUnidad(u.id, { vigente }), vigente ? `Se restauró la unidad «${u.nombre}»` : `Se retiró la unidad «${u.nombre}»`);

  const moverUnidad = (u: Unidad, orden: number) => hacer(() => actualizarUnidad(u.id, { orden }), `Se movió la unidad «${u.nombre}»`);

  const cerrar = () => !ocupado && setDialogo(null);
  const unidades = arbol.unidades;

  return (
    <div className="arbol-curriculo" aria-busy={ocupado || undefined}>
      <div className="acciones-arbol">
        <button type="button" disabled={!hidratado} onFocus={precargar} onPointerEnter={precargar} onClick={() => abrir({ tipo: 'nueva' })}>
          Nueva unidad
        </button>
      </div>
      {unidades.length === 0 && <p className="sin-resultados">Este nivel todavía no tiene unidades en esta asignatura.</p>}
      <ol className="unidades-admin">
        {unidades.map((u, i) => (
          <li key={u.id} id={`unidad-${u.id}`} className={u.vigente ? 'unidad-admin' : 'unidad-admin retirada'}>
            <div className="cabecera-unidad">
              <h3>
                {u.nombre} {!u.vigente && <span className="no-vigente">No vigente</span>}
              </h3>
              <p className="cifras-unidad">
                {plural(u.oas.length, 'OA', 'OA')} · {plural(u.materiales, 'material', 'materiales')}
              </p>
            </div>
            <div className="acciones-fila">
              <Accion
                hidratado={hidratado}
                texto="Renombrar"
                etiqueta={`Renombrar la unidad ${u.nombre}`}
                onClick={() => abrir({ tipo: 'renombrar', unidad: u }, u.nombre)}
              />
              <Accion
                hidratado={hidratado}
                texto="Subir"
                etiqueta={`Subir la unidad ${u.nombre}`}
                inactivo={i === 0}
                onClick={() => moverUnidad(u, i)}
              />
              <Accion
                hidratado={hidratado}
                texto="Bajar"
                etiqueta={`Bajar la unidad ${u.nombre}`}
                inactivo={i === unidades.length - 1}
                onClick={() => moverUnidad(u, i + 2)}
              />
              {u.vigente ? (
                <Accion
                  hidratado={hidratado}
                  texto="Retirar"
                  etiqueta={`Retirar la unidad ${u.nombre}`}
                  onClick={() => retirarUnidad(u, false)}
                />
              ) : (
                <Accion
                  hidratado={hidratado}
                  texto="Restaurar"
                  etiqueta={`Restaurar la unidad ${u.nombre}`}
                  onClick={() => retirarUnidad(u, true)}
                />
              )}
              <Accion
                hidratado={hidratado}
                peligro
                texto="Eliminar"
                etiqueta={`Eliminar la unidad ${u.nombre}`}
                onClick={() => abrir({ tipo: 'eliminar', unidad: u })}
              />
            </div>
            {u.oas.length === 0 ? (
              <p className="sin-oas">Sin OA. Mueve aquí los OA de otra unidad con «Mover a».</p>
            ) : (
              <ol className="oas-admin">
                {u.oas.map((oa, j) => (
                  <FilaOa
                    key={oa.id}
                    oa={oa}
                    unidad={u}
                    unidades={unidades}
                    primero={j === 0}
                    ultimo={j === u.oas.length - 1}
                    posicion={j + 1}
                    hidratado={hidratado}
                    hacer={hacer}
                  />
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>

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
            onChange={(e) => setNombre(e.target.value)}
          />
          <footer>
            <button type="button" className="secundario" disabled={ocupado} onClick={cerrar}>
              Cancelar
            </button>
            <button type="submit" disabled={ocupado} aria-busy={ocupado || undefined}>
              {dialogo?.tipo === 'nueva' ? 'Crear unidad' : 'Guardar'}
            </button>
          </footer>
        </form>
      </Modal>

      {dialogo?.tipo === 'eliminar' && (
        <ConfirmarEliminar
          dialogo={dialogo}
          ocupado={ocupado}
          onCancelar={cerrar}
          onEliminar={eliminar}
          onRetirar={(u) => retirarUnidad(u, false)}
        />
      )}
    </div>
  );
}

function ConfirmarEliminar(props: {
  dialogo: Extract<Dialogo, { tipo: 'eliminar' }>;
  ocupado: boolean;
  onCancelar: () => void;
  onEliminar: (u: Unidad) => void;
  onRetirar: (u: Unidad) => void;
}) {
  const { unidad, usada } = props.dialogo;
  const pregunta: ReactNode = usada ? (
    <>
      <p role="alert">{usada}</p>
      <p>
        Puedes retirar <strong>{unidad.nombre}</strong>: deja de ofrecerse para material nuevo y sigue en los materiales que ya la usan,
        marcada «No vigente».
      </p>
    </>
  ) : (
    <p>
      ¿Eliminar la unidad <strong>{unidad.nombre}</strong>? Solo se puede eliminar una unidad sin OA y que ningún material usa.
    </p>
  );
  return (
    <Confirmacion
      abierto
      titulo={usada ? 'La unidad está en uso' : 'Eliminar unidad'}
      ocupado={props.ocupado}
      onCancelar={props.onCancelar}
      onConfirmar={() => (usada ? props.onRetirar(unidad) : props.onEliminar(unidad))}
      boton={usada ? 'Retirar' : 'Eliminar'}
    >
      {pregunta}
    </Confirmacion>
  );
}

interface FilaOaProps {
  oa: Oa;
  unidad: Unidad;
  unidades: Unidad[];
  primero: boolean;
  ultimo: boolean;
  /** Its place in its unit, from 1. */
  posicion: number;
  hidratado: boolean;
  hacer: (accion: () => Promise<Resultado<unknown>>, exito: string) => Promise<void>;
}

function FilaOa({ oa, unidad, unidades, primero, ultimo, posicion, hidratado, hacer }: FilaOaProps) {
  const otras = unidades.filter((u) => u.id !== unidad.id);
  const [destino, setDestino] = useState(otras[0]?.id ?? 0);
  const elegido = otras.find((u) => u.id === destino) ?? otras[0];
  const mover = (cambios: { unidad?: number; orden?: number; vigente?: boolean }, exito: string) =>
    hacer(() => actualizarOa(oa.id, cambios), exito);
  const idSelect = `destino-${oa.id}`;

  return (
    <li id={`oa-${oa.id}`} className={oa.vigente ? 'oa-admin' : 'oa-admin retirado'}>
      <p className="cabecera-oa">
        <strong className="codigo-oa">{oa.codigo}</strong>
        {!oa.vigente && <span className="no-vigente">No vigente</span>}
        <span className="materiales-oa">{plural(oa.materiales, 'material', 'materiales')}</span>
      </p>
      <p className="enunciado-oa">{oa.descripcion}</p>
      <div className="acciones-fila">
        <Accion
          hidratado={hidratado}
          texto="Subir"
          etiqueta={`Subir ${oa.codigo}`}
          inactivo={primero}
          onClick={() => mover({ orden: posicion - 1 }, `Se movió ${oa.codigo}`)}
        />
        <Accion
          hidratado={hidratado}
          texto="Bajar"
          etiqueta={`Bajar ${oa.codigo}`}
          inactivo={ultimo}
          onClick={() => mover({ orden: posicion + 1 }, `Se movió ${oa.codigo}`)}
        />
        {oa.vigente ? (
          <Accion
            hidratado={hidratado}
            texto="Retirar"
            etiqueta={`Retirar ${oa.codigo}`}
            onClick={() => mover({ vigente: false }, `Se retiró ${oa.codigo}`)}
          />
        ) : (
          <Accion
            hidratado={hidratado}
            texto="Restaurar"
            etiqueta={`Restaurar ${oa.codigo}`}
            onClick={() => mover({ vigente: true }, `Se restauró ${oa.codigo}`)}
          />
        )}
        {elegido && (
          <span className="mover-oa">
            <label htmlFor={idSelect}>Mover a</label>
            <select id={idSelect} value={elegido.id} disabled={!hidratado} onChange={(e) => setDestino(Number(e.target.value))}>
              {otras.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.nombre}
                </option>
              ))}
            </select>
            <Accion
              hidratado={hidratado}
              texto="Mover"
              etiqueta={`Mover ${oa.codigo} a la unidad elegida`}
              onClick={() => mover({ unidad: elegido.id }, `Se movió ${oa.codigo} a «${elegido.nombre}»`)}
            />
          </span>
        )}
      </div>
    </li>
  );
}

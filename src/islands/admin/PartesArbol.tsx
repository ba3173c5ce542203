/**
 * The curriculum tree of /admin/curriculo (issue 30): its units and OAs with their small action
 * buttons (VistaArbol), and the dialog before deleting a unit. The page renders VistaArbol on the
 * server as plain HTML (buttons disabled) inside the island, and the island renders it again, live,
 * once it has read the pair: the statements travel once, not again as the island's props.
 */
import type { ReactNode } from 'react';
import { plural } from '../../lib/format';
import { Confirmacion } from '../comun/Confirmacion';
import { type ArbolPar, precargar } from './api';

type UnidadPar = ArbolPar['unidades'][number];
/** What the tree shows of an OA and of a unit. */
export type Oa = Pick<UnidadPar['oas'][number], 'id' | 'codigo' | 'descripcion' | 'vigente' | 'materiales'>;
export type Unidad = Pick<UnidadPar, 'id' | 'nombre' | 'niveles' | 'vigente' | 'materiales'> & { oas: Oa[] };

/** A small button of the tree; `inactivo` keeps it focusable but says it does nothing here. */
export function Accion(props: {
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

interface AccionesUnidadProps {
  unidad: Unidad;
  primera: boolean;
  ultima: boolean;
  hidratado: boolean;
  onRenombrar: () => void;
  onMover: (hacia: 'subir' | 'bajar') => void;
  onVigente: (vigente: boolean) => void;
  onEliminar: () => void;
}

function AccionesUnidad({ unidad: u, primera, ultima, hidratado, onRenombrar, onMover, onVigente, onEliminar }: AccionesUnidadProps) {
  return (
    <div className="acciones-fila">
      <Accion hidratado={hidratado} texto="Renombrar" etiqueta={`Renombrar la unidad ${u.nombre}`} onClick={onRenombrar} />
      <Accion
        hidratado={hidratado}
        texto="Subir"
        etiqueta={`Subir la unidad ${u.nombre}`}
        inactivo={primera}
        onClick={() => onMover('subir')}
      />
      <Accion
        hidratado={hidratado}
        texto="Bajar"
        etiqueta={`Bajar la unidad ${u.nombre}`}
        inactivo={ultima}
        onClick={() => onMover('bajar')}
      />
      {u.vigente ? (
        <Accion hidratado={hidratado} texto="Retirar" etiqueta={`Retirar la unidad ${u.nombre}`} onClick={() => onVigente(false)} />
      ) : (
        <Accion hidratado={hidratado} texto="Restaurar" etiqueta={`Restaurar la unidad ${u.nombre}`} onClick={() => onVigente(true)} />
      )}
      <Accion hidratado={hidratado} peligro texto="Eliminar" etiqueta={`Eliminar la unidad ${u.nombre}`} onClick={onEliminar} />
    </div>
  );
}

export function ConfirmarEliminar(props: {
  dialogo: { unidad: Unidad; usada?: string | undefined };
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

export type CambioOa = { orden?: number; vigente?: boolean };

/** What the buttons do; without it (on the server) they are disabled and do nothing. */
export interface AccionesArbol {
  renombrar: (u: Unidad) => void;
  moverUnidad: (u: Unidad, orden: number) => void;
  vigenteUnidad: (u: Unidad, vigente: boolean) => void;
  eliminar: (u: Unidad) => void;
  /** Opens the dialog that moves an OA to another unit. */
  moverOa: (oa: Oa, desde: Unidad) => void;
  cambiarOa: (oa: Oa, cambio: CambioOa, exito: string) => void;
}

const NADA: AccionesArbol = {
  renombrar: () => undefined,
  moverUnidad: () => undefined,
  vigenteUnidad: () => undefined,
  eliminar: () => undefined,
  moverOa: () => undefined,
  cambiarOa: () => undefined,
};

export function VistaArbol({ unidades, acciones }: { unidades: Unidad[]; acciones?: AccionesArbol | undefined }) {
  const hacer = acciones ?? NADA;
  const hidratado = acciones !== undefined;
  return (
    <>
      {unidades.length === 0 && <p className="sin-resultados">Este nivel todavía no tiene unidades en esta asignatura.</p>}
      <ol className="unidades-admin">
        {unidades.map((u, i) => (
          <li key={u.id} id={`unidad-${u.id}`} tabIndex={-1} className={u.vigente ? 'unidad-admin' : 'unidad-admin retirada'}>
            <div className="cabecera-unidad">
              <h3>
                {u.nombre} {!u.vigente && <span className="no-vigente">No vigente</span>}
              </h3>
              <p className="cifras-unidad">
                {plural(u.oas.length, 'OA', 'OA')} · {plural(u.materiales, 'material', 'materiales')}
                {u.niveles.length > 1 && ` · Se imparte en ${u.niveles.join(' y ')}`}
              </p>
            </div>
            <AccionesUnidad
              unidad={u}
              primera={i === 0}
              ultima={i === unidades.length - 1}
              hidratado={hidratado}
              onRenombrar={() => hacer.renombrar(u)}
              onMover={(hacia) => hacer.moverUnidad(u, hacia === 'subir' ? i : i + 2)}
              onVigente={(vigente) => hacer.vigenteUnidad(u, vigente)}
              onEliminar={() => hacer.eliminar(u)}
            />
            {u.oas.length === 0 ? (
              <p className="sin-oas">Sin OA. Trae aquí los OA de otra unidad con «Mover».</p>
            ) : (
              <ol className="oas-admin">
                {u.oas.map((oa, j) => (
                  <FilaOa
                    key={oa.id}
                    oa={oa}
                    primero={j === 0}
                    ultimo={j === u.oas.length - 1}
                    posicion={j + 1}
                    hidratado={hidratado}
                    onCambio={(cambio, exito) => hacer.cambiarOa(oa, cambio, exito)}
                    onMover={unidades.length > 1 ? () => hacer.moverOa(oa, u) : undefined}
                  />
                ))}
              </ol>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}

interface FilaOaProps {
  oa: Oa;
  primero: boolean;
  ultimo: boolean;
  /** Its place in its unit, from 1. */
  posicion: number;
  hidratado: boolean;
  onCambio: (cambio: CambioOa, exito: string) => void;
  /** Opens the dialog that moves it to another unit (none when the pair has one unit). */
  onMover: (() => void) | undefined;
}

function FilaOa({ oa, primero, ultimo, posicion, hidratado, onCambio: mover, onMover }: FilaOaProps) {
  return (
    <li id={`oa-${oa.id}`} tabIndex={-1} className={oa.vigente ? 'oa-admin' : 'oa-admin retirado'}>
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
        {onMover && <Accion hidratado={hidratado} texto="Mover" etiqueta={`Mover ${oa.codigo} a otra unidad`} onClick={onMover} />}
      </div>
    </li>
  );
}

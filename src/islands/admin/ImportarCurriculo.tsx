/**
 * Import a curriculum file in /admin/curriculo (issue 30): the admin chooses a CSV or JSON file,
 * sees what it would add, change and retire (a dry run, confirmar=false), then applies it
 * (confirmar=true, one transaction) or cancels. A file with errors gets its report line by line
 * and nothing is applied. Same steps as the roster import (useImportacion.ts).
 */
import { useEffect } from 'react';
import { plural } from '../../lib/format';
import { avisarImportacionCurriculo } from '../../lib/stores/curriculo';
import { useHidratado } from '../comun/Campo';
import { type ErroresImportacion, type ImportacionCurriculo, importarCurriculo, informeImportacion } from './api';
import { ElegirYRevisar } from './ElegirYRevisar';
import { useImportacion } from './useImportacion';

const TIPOS: Record<ImportacionCurriculo['cambios'][number]['tipo'], string> = {
  agregado: 'Se agrega',
  cambiado: 'Cambia',
  retirado: 'Se retira',
};

function Cifras({ i }: { i: ImportacionCurriculo }) {
  return (
    <ul className="cifras-importacion">
      <li>
        <strong>{i.agregados}</strong> {i.agregados === 1 ? 'agregado' : 'agregados'}
      </li>
      <li>
        <strong>{i.cambiados}</strong> {i.cambiados === 1 ? 'cambiado' : 'cambiados'}
      </li>
      <li>
        <strong>{i.retirados}</strong> {i.retirados === 1 ? 'retirado' : 'retirados'}
      </li>
      <li>
        <strong>{i.sin_cambios}</strong> sin cambios
      </li>
    </ul>
  );
}

function TablaCambios({ cambios }: { cambios: ImportacionCurriculo['cambios'] }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll it
    <section className="tabla-admin desplazable" aria-label="Cambios del archivo" tabIndex={0}>
      <table className="tabla-cambios">
        <caption>Cambios del archivo</caption>
        <thead>
          <tr>
            <th scope="col">Código</th>
            <th scope="col">Qué</th>
            <th scope="col">Cambio</th>
            <th scope="col">Antes</th>
            <th scope="col">Después</th>
          </tr>
        </thead>
        <tbody>
          {cambios.map((c) => (
            <tr key={`${c.tipo}-${c.objeto}-${c.codigo}`}>
              <th scope="row" className="sin-corte">
                {c.codigo}
              </th>
              <td>{c.objeto === 'oa' ? 'OA' : 'Unidad'}</td>
              <td>
                <span className={`estado-linea ${c.tipo}`}>{TIPOS[c.tipo]}</span>
              </td>
              <td>{c.antes ?? '—'}</td>
              <td>{c.despues ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TablaErrores({ errores }: { errores: ErroresImportacion }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll it
    <section className="tabla-admin desplazable" aria-label="Errores del archivo" tabIndex={0}>
      <table className="tabla-lineas">
        <caption>Errores del archivo</caption>
        <thead>
          <tr>
            <th scope="col">Línea</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {errores.map((e) => (
            <tr key={`${e.linea}-${e.mensaje}`}>
              <th scope="row" className="numero">
                {e.linea}
              </th>
              <td>{e.mensaje}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function ImportarCurriculo() {
  const hidratado = useHidratado();
  const importacion = useImportacion(importarCurriculo, 'Debe elegir un archivo CSV o JSON', informeImportacion);
  const { vista, resultado, fallo, enviando, enviar, cancelar } = importacion;
  useEffect(() => {
    if (resultado) avisarImportacionCurriculo();
  }, [resultado]);
  const hayCambios = vista ? vista.agregados + vista.cambiados + vista.retirados > 0 : false;

  return (
    <div className="importar-curriculo">
      <ElegirYRevisar
        importacion={importacion}
        hidratado={hidratado}
        id="archivo-curriculo"
        etiqueta="Archivo del currículum"
        accept=".csv,.json,text/csv,application/json"
        ayuda="Un archivo .csv o .json con el formato del ejemplo, en UTF-8 o Latin-1."
        revisar="Revisar archivo"
      />

      {fallo && (
        <section className="vista-previa" aria-labelledby="titulo-errores-curriculo">
          <h3 id="titulo-errores-curriculo" tabIndex={-1} ref={(h) => h?.focus()}>
            El archivo tiene {plural(fallo.length, 'línea con errores', 'líneas con errores')}: no se aplicó ningún cambio
          </h3>
          <TablaErrores errores={fallo} />
        </section>
      )}

      {vista && (
        <section className="vista-previa" aria-labelledby="titulo-vista-curriculo">
          <h3 id="titulo-vista-curriculo" tabIndex={-1} ref={(h) => h?.focus()}>
            {vista.errores.length > 0
              ? `El archivo tiene ${plural(vista.errores.length, 'línea con errores', 'líneas con errores')}: corrígelas y revísalo de nuevo`
              : `Vista previa del archivo: ${plural(vista.pares.length, 'asignatura y nivel', 'asignaturas y niveles')}`}
          </h3>
          {vista.errores.length > 0 ? (
            <>
              <p>No se aplicará ningún cambio mientras el archivo tenga errores.</p>
              <TablaErrores errores={vista.errores} />
            </>
          ) : (
            <>
              <Cifras i={vista} />
              {hayCambios ? <TablaCambios cambios={vista.cambios} /> : <p>El archivo no cambia nada del currículum actual.</p>}
            </>
          )}
          <div className="acciones">
            {vista.errores.length === 0 && (
              <button
                type="button"
                disabled={!hayCambios || enviando !== null}
                aria-busy={enviando === 'confirmar' || undefined}
                onClick={() => enviar(true)}
              >
                {enviando === 'confirmar' ? 'Aplicando...' : 'Aplicar cambios'}
              </button>
            )}
            <button type="button" className="secundario" disabled={enviando !== null} onClick={cancelar}>
              Cancelar
            </button>
          </div>
        </section>
      )}

      {resultado && (
        <section className="resultado-importacion" aria-labelledby="titulo-resultado-curriculo">
          <h3 id="titulo-resultado-curriculo" tabIndex={-1} ref={(h) => h?.focus()}>
            Cambios aplicados
          </h3>
          <Cifras i={resultado} />
          {/* Rendered after a click only, never on the server: the page with its counts as they are now. */}
          <a className="boton secundario" href={`${location.pathname}${location.search}`}>
            Ver las cifras actualizadas
          </a>
        </section>
      )}
    </div>
  );
}

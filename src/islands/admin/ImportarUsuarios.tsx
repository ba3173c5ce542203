/**
 * Import a school roster (issue 16): the admin drops a CSV, sees every parsed line with its
 * errors (a dry run, confirmar=false), then confirms and sees what happened to each line. Nothing
 * is created before the confirmation; lines with errors are skipped.
 */
import { useHidratado } from '../comun/Campo';
import { ZonaArchivo } from '../comun/ZonaArchivo';
import { type Importacion, importar } from './api';
import { useImportacion } from './useImportacion';

type Linea = Importacion['lineas'][number];

const ESTADOS: Record<Linea['estado'], string> = {
  valida: 'Lista para crear',
  error: 'Con errores',
  creada: 'Creada',
  existente: 'Ya existía',
};

function TablaLineas({ importacion, titulo }: { importacion: Importacion; titulo: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll it
    <section className="tabla-admin" aria-label={titulo} tabIndex={0}>
      <table className="tabla-lineas">
        <caption>{titulo}</caption>
        <thead>
          <tr>
            <th scope="col">Línea</th>
            <th scope="col">Correo</th>
            <th scope="col">Nombre</th>
            <th scope="col">Estado</th>
            <th scope="col">Errores</th>
          </tr>
        </thead>
        <tbody>
          {importacion.lineas.map((l) => (
            <tr key={l.linea} className={`linea-${l.estado}`}>
              <th scope="row">{l.linea}</th>
              <td className="correo">{l.email || '—'}</td>
              <td>{`${l.nombres} ${l.apellidos}`.trim() || '—'}</td>
              <td>
                <span className={`estado-linea ${l.estado}`}>{ESTADOS[l.estado]}</span>
              </td>
              <td>{l.errores.length > 0 ? l.errores.join('; ') : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function ImportarUsuarios() {
  const hidratado = useHidratado();
  const { archivo, vista, resultado, error, enviando, elegir, enviar } = useImportacion(importar, 'Debe elegir un archivo CSV');

  const validas = vista?.lineas.filter((l) => l.estado === 'valida').length ?? 0;

  return (
    <div className="importar-usuarios">
      <p className="ayuda-importar">
        La primera fila nombra las columnas: <code>email</code>, <code>nombres</code>, <code>apellidos</code> y, si quieres,{' '}
        <code>rut</code>, <code>colegio</code> y <code>admin</code> (si/no). Las columnas se separan con coma o punto y coma, como las
        guarda Excel.
      </p>
      <ZonaArchivo
        id="planilla"
        etiqueta="Planilla CSV"
        accept=".csv,text/csv"
        archivo={archivo}
        onArchivo={elegir}
        error={error ?? undefined}
        ayuda="Un archivo .csv con una persona por fila."
        disabled={!hidratado || enviando !== null}
      />
      <div className="acciones">
        <button
          type="button"
          className="secundario"
          disabled={!hidratado || !archivo || enviando !== null}
          aria-busy={enviando === 'revisar' || undefined}
          onClick={() => enviar(false)}
        >
          {enviando === 'revisar' ? 'Revisando...' : 'Revisar planilla'}
        </button>
      </div>

      {vista && (
        <section className="vista-previa" aria-labelledby="titulo-vista">
          <h3 id="titulo-vista" tabIndex={-1} ref={(h) => h?.focus()}>
            Vista previa: {validas} de {vista.lineas.length} líneas se pueden crear
          </h3>
          <TablaLineas importacion={vista} titulo="Líneas de la planilla" />
          <div className="acciones">
            <button
              type="button"
              disabled={validas === 0 || enviando !== null}
              aria-busy={enviando === 'confirmar' || undefined}
              onClick={() => enviar(true)}
            >
              {enviando === 'confirmar' ? 'Importando...' : 'Confirmar importación'}
            </button>
          </div>
        </section>
      )}

      {resultado && (
        <section className="resultado-importacion" aria-labelledby="titulo-resultado">
          <h3 id="titulo-resultado" tabIndex={-1} ref={(h) => h?.focus()}>
            Importación terminada: {resultado.creadas === 1 ? '1 cuenta creada' : `${resultado.creadas} cuentas creadas`}
            {resultado.con_error > 0 &&
              `, ${resultado.con_error === 1 ? '1 línea con errores' : `${resultado.con_error} líneas con errores`}`}
          </h3>
          <TablaLineas importacion={resultado} titulo="Resultado de cada línea" />
          <a className="boton secundario" href="/admin/usuarios?orden=-fecha">
            Ver las cuentas
          </a>
        </section>
      )}
    </div>
  );
}

/**
 * Import a school roster (issue 16): the admin drops a CSV, sees every parsed line with its
 * errors (a dry run, confirmar=false), then confirms and sees what happened to each line. Nothing
 * is created before the confirmation; lines with errors are skipped.
 */
import { useHidratado } from '../comun/Campo';
import { type Importacion, importar } from './api';
import { ElegirYRevisar } from './ElegirYRevisar';
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
    <section className="tabla-admin desplazable" aria-label={titulo} tabIndex={0}>
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
  const importacion = useImportacion(importar, 'Debe elegir un archivo CSV');
  const { vista, resultado, enviando, enviar } = importacion;

  const validas = vista?.lineas.filter((l) => l.estado === 'valida').length ?? 0;

  return (
    <div className="importar-usuarios">
      <p className="ayuda-importar">
        La primera fila nombra las columnas: <code>email</code>, <code>nombres</code>, <code>apellidos</code> y, si quieres,{' '}
        <code>rut</code>, <code>colegio</code> y <code>admin</code> (si/no). Las columnas se separan con coma o punto y coma, como las
        guarda Excel.
      </p>
      <ElegirYRevisar
        importacion={importacion}
        hidratado={hidratado}
        id="planilla"
        etiqueta="Planilla CSV"
        accept=".csv,text/csv"
        ayuda="Un archivo .csv con una persona por fila."
        revisar="Revisar planilla"
      />

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

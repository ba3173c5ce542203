/**
 * The copy's `index.html` (issue 31): what the ZIP holds, readable in any browser with the ZIP
 * unpacked, in Spanish, with no scripts and no outside resources; every link is relative to the
 * files beside it.
 */
import { formatearFechaHora, formatearTamano } from '../../../format/index.ts';
import { PRODUCTO } from '../../../marca.ts';
import { escapeHtml as escapar } from '../../html.server.ts';
import type { DatosCopia, Incluido } from './archivo-zip.server.ts';

/** A relative link to a path inside the ZIP (each segment encoded). */
export const enlace = (ruta: string) => ruta.split('/').map(encodeURIComponent).join('/');

export function paginaIndice(datos: DatosCopia, archivos: Incluido[]): string {
  const secciones = datos.categorias
    .map((c) => {
      const lineas = c.lineas.length > 0 ? `<ul>${c.lineas.map((l) => `<li>${escapar(l)}</li>`).join('')}</ul>` : '<p>No hay datos.</p>';
      return `<section id="${escapar(c.clave)}"><h2>${escapar(c.nombre)} (${c.cantidad})</h2>${lineas}<p><a href="${enlace(`datos/${c.clave}.json`)}">Datos en formato JSON</a></p></section>`;
    })
    .join('\n');
  const filas = archivos
    .map((a) => {
      const nombre = a.ruta ? `<a href="${enlace(a.ruta)}">${escapar(a.ruta)}</a>` : 'No incluido';
      const nota = a.nota ? ` <em>${escapar(a.nota)}</em>` : '';
      return `<tr><td>${escapar(a.descripcion)}${nota}</td><td>${nombre}</td><td>${a.ruta ? formatearTamano(a.bytes) : ''}</td></tr>`;
    })
    .join('\n');
  const tabla =
    archivos.length > 0
      ? `<table><thead><tr><th>Archivo</th><th>Ubicación en la copia</th><th>Tamaño</th></tr></thead><tbody>${filas}</tbody></table>`
      : '<p>No hay archivos.</p>';
  const indice = datos.categorias.map((c) => `<li><a href="#${escapar(c.clave)}">${escapar(c.nombre)}</a> (${c.cantidad})</li>`).join('');
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tus datos en ${escapar(PRODUCTO)}</title>
<style>body{font-family:Arial,sans-serif;color:#1f2933;max-width:860px;margin:0 auto;padding:24px;line-height:1.5}table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccd;padding:6px;text-align:left;vertical-align:top}h2{margin-top:32px}</style>
</head>
<body>
<h1>Tus datos en ${escapar(PRODUCTO)}</h1>
<p>Copia de los datos de ${escapar(datos.nombre)}, preparada el ${escapar(formatearFechaHora(datos.fecha))}.</p>
<p>Cada sección tiene sus datos también en formato JSON (en la carpeta <code>datos</code>), para llevarlos a otro servicio. Los archivos que subiste están en la carpeta <code>archivos</code>, tal como se guardaron.</p>
<nav aria-label="Secciones"><ul>${indice}<li><a href="#archivos">Archivos</a> (${archivos.filter((a) => a.ruta).length})</li></ul></nav>
${secciones}
<section id="archivos"><h2>Archivos</h2>${tabla}</section>
</body>
</html>
`;
}

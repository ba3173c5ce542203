/**
 * The mochila's pages (issue 35): `index.html` and one page per conversation, readable in any
 * browser straight from a USB stick. No scripts and no outside resources (a policy in the page
 * forbids them too); every link is relative to the files beside it. A conversation's pictures stay
 * on the platform: each shows as its description, so the page asks nothing of the network.
 */
import { formatearTamano } from '../../../format/index.ts';
import { PRODUCTO } from '../../../marca.ts';
import { escapeHtml as escapar } from '../../html.server.ts';
import { enlace } from '../mis-datos/indice.server.ts';
import type { EntradaMochila, FuenteMochila } from './mochila.server.ts';

const ESTILO =
  'body{font-family:Arial,sans-serif;color:#1f2933;max-width:860px;margin:0 auto;padding:24px;line-height:1.5}article{border-top:1px solid #ccd;padding:12px 0}h2{margin:0 0 4px;font-size:1.2rem}.tipo{color:#52606d;font-size:.85rem;text-transform:uppercase;margin:0}.nota{border-left:4px solid #2f7d6d;background:#f0f7f5;padding:6px 10px;white-space:pre-line}.aviso{color:#8a4b00}';

/** Nothing may be fetched: not a script, a picture, a font nor a frame. */
const POLITICA = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`;

const pagina = (titulo: string, cuerpo: string) => `<!DOCTYPE html>
<html lang="es">
<head>
<meta charset="utf-8">
${POLITICA}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapar(titulo)}</title>
<style>${ESTILO}</style>
</head>
<body>
${cuerpo}
</body>
</html>
`;

/** Text with its line breaks kept. */
const parrafos = (texto: string) =>
  texto
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapar(p)}</p>`)
    .join('');

function entrada(e: EntradaMochila): string {
  const oas = e.oas.length > 0 ? `<p>OA: ${e.oas.map(escapar).join(', ')}</p>` : '';
  const licencia = e.licencia.url
    ? `<p>Licencia: ${escapar(e.licencia.nombre)} (${escapar(e.licencia.url)})</p>`
    : `<p>Licencia: ${escapar(e.licencia.nombre)}</p>`;
  const archivos = e.archivos
    .map((a) => `<li><a href="${enlace(a.ruta)}">${escapar(a.etiqueta)}</a> (${formatearTamano(a.bytes)})</li>`)
    .join('');
  return `<article>
<p class="tipo">${escapar(e.tipo)}</p>
<h2>${escapar(e.titulo)}</h2>
<p>De ${escapar(e.autor)}</p>
${e.nota ? `<p class="nota">${escapar(e.nota)}</p>` : ''}
${parrafos(e.descripcion)}
${oas}
${licencia}
${archivos ? `<ul>${archivos}</ul>` : ''}
${e.aviso ? `<p class="aviso">${escapar(e.aviso)}</p>` : ''}
</article>`;
}

export function paginaMochila(coleccion: FuenteMochila, entradas: EntradaMochila[]): string {
  const cuerpo = `<h1>${escapar(coleccion.nombre)}</h1>
<p>${escapar(coleccion.presentacion)} en ${escapar(PRODUCTO)}. Funciona sin internet: abre los archivos desde esta carpeta.</p>
${parrafos(coleccion.descripcion)}
${entradas.length === 0 ? '<p>No hay contenido para llevar.</p>' : entradas.map(entrada).join('\n')}`;
  return pagina(coleccion.nombre, cuerpo);
}

/**
 * A conversation as a page of its own: its sanitized HTML without pictures (each becomes its
 * description) and with links outside the mochila kept as text.
 */
export function paginaConversacion(titulo: string, autor: string, html: string): string {
  const sinImagenes = html.replace(/<img\b[^>]*>/gi, (tag) => {
    const alt = /\balt="([^"]*)"/i.exec(tag)?.[1];
    return alt ? `[imagen: ${alt}]` : '[imagen]';
  });
  const sinEnlaces = sinImagenes.replace(/<a\b[^>]*>/gi, '').replace(/<\/a>/gi, '');
  const cuerpo = `<p><a href="../index.html">Volver al índice</a></p>
<p class="tipo">Conversación</p>
<h1>${escapar(titulo)}</h1>
<p>De ${escapar(autor)}</p>
${sinEnlaces}`;
  return pagina(titulo, cuerpo);
}

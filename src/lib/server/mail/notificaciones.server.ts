/**
 * The notification mails (issue 17): one per notification ('cada vez') or a daily digest. Each
 * carries the one-click unsubscribe link in its text and as the mail's action link
 * (`correos.enlace`); the outbox turns that link into the List-Unsubscribe headers (RFC 8058)
 * when it sends the mail, so nothing new is stored.
 */
import { PRODUCTO } from '../../marca.ts';
import { escapeHtml } from '../html.server.ts';
import type { Rendered } from './templates.server.ts';

/** The path of the unsubscribe link (GET: a page that confirms; POST: unsubscribes, no sign-in). */
export const RUTA_BAJA = '/api/notificaciones/baja/';

/**
 * One line of a mail: a notification's sentence and, for a follow's (issue 35), the link that
 * stops that follow with one click.
 */
export interface LineaCorreo {
  texto: string;
  dejar?: string;
}

const lineaTexto = (l: LineaCorreo) => `- ${l.texto}${l.dejar ? `\n  Dejar de seguir: ${l.dejar}` : ''}`;
const lineaHtml = (l: LineaCorreo) =>
  `<li style="margin:0 0 8px">${escapeHtml(l.texto)}${l.dejar ? ` <a href="${escapeHtml(l.dejar)}" style="font-size:12px;color:#555">Dejar de seguir</a>` : ''}</li>`;

function render(subject: string, saludo: string, lineas: LineaCorreo[], accion: { label: string; url: string }, baja: string): Rendered {
  const pie = 'Recibes este correo por tu preferencia de notificaciones. Para no recibir más correos de notificaciones:';
  const text = [saludo, ...lineas.map(lineaTexto), `${accion.label}: ${accion.url}`, `${pie} ${baja}`, `— ${PRODUCTO}`].join('\n\n');
  const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,sans-serif;color:#1f2933;max-width:560px;margin:0 auto;padding:24px"><p>${escapeHtml(saludo)}</p><ul>${lineas.map(lineaHtml).join('')}</ul><p style="margin:24px 0"><a href="${escapeHtml(accion.url)}" style="background:#1d5fa8;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(accion.label)}</a></p><p style="font-size:12px;color:#555">${escapeHtml(pie)} <a href="${escapeHtml(baja)}">dejar de recibir estos correos</a>.</p><p style="font-size:12px;color:#777">${escapeHtml(PRODUCTO)}</p></body></html>`;
  return { subject, text, html };
}

export function correoNotificacion(nombre: string, linea: LineaCorreo, enlace: string, baja: string): Rendered {
  return render(`${linea.texto} — ${PRODUCTO}`.slice(0, 200), `Hola ${nombre}:`, [linea], { label: 'Ver', url: enlace }, baja);
}

export function resumenDiario(nombre: string, textos: LineaCorreo[], enlace: string, baja: string): Rendered {
  const n = textos.length;
  return render(
    `Tu resumen de ${PRODUCTO}: ${n} ${n === 1 ? 'novedad sin leer' : 'novedades sin leer'}`,
    `Hola ${nombre}: esto tienes sin leer en ${PRODUCTO}.`,
    textos.slice(0, 50),
    { label: 'Ver mis notificaciones', url: enlace },
    baja,
  );
}

/** The List-Unsubscribe headers of a mail whose action link is an unsubscribe link, else none. */
export function cabecerasBaja(enlace: string | null | undefined): Record<string, string> | undefined {
  if (!enlace || !new URL(enlace, 'http://x').pathname.startsWith(RUTA_BAJA)) return undefined;
  return { 'List-Unsubscribe': `<${enlace}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

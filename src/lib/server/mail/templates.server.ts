/** The Spanish messages the platform sends, each as HTML and plain text. */
import { formatearFechaHora } from '../../format/index.ts';
import { PRODUCTO } from '../../marca.ts';
import { escapeHtml } from '../html.server.ts';

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1d5fa8;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#555">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:Arial,sans-serif;color:#1f2933;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}${button}<p style="font-size:12px;color:#777">${escapeHtml(PRODUCTO)}</p></body></html>`;
}

function render(subject: string, paragraphs: string[], action?: { label: string; url: string }): Rendered {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), `— ${PRODUCTO}`].join('\n\n');
  return { subject, text, html: layout(subject, paragraphs, action) };
}

export function activacion(nombre: string, url: string): Rendered {
  return render(
    `Activa tu cuenta en ${PRODUCTO}`,
    [
      `Hola ${nombre}:`,
      `Se creó una cuenta para ti en ${PRODUCTO}, la plataforma de cápsulas, materiales, manuales y foro para docentes de la red.`,
      'Para activarla, crea tu contraseña con el siguiente enlace. El enlace es personal, se puede usar una sola vez y vence en 7 días.',
    ],
    { label: 'Crear contraseña', url },
  );
}

export function recuperacion(nombre: string, url: string): Rendered {
  return render(
    `Restablece tu contraseña de ${PRODUCTO}`,
    [
      `Hola ${nombre}:`,
      'Recibimos una solicitud para cambiar tu contraseña. Usa el siguiente enlace para crear una nueva. El enlace vence en 1 hora y se puede usar una sola vez.',
      'Si no fuiste tú, ignora este mensaje: tu contraseña actual sigue funcionando.',
    ],
    { label: 'Cambiar contraseña', url },
  );
}

/** The copy of the person's data is ready (issue 31): the link opens Mis datos, which asks them to sign in. */
export function copiaLista(nombre: string, url: string, expira: Date): Rendered {
  return render(
    `Tu copia de datos de ${PRODUCTO} está lista`,
    [
      `Hola ${nombre}:`,
      `La copia de tus datos que pediste ya está lista. Puedes descargarla desde Mis datos, con tu sesión iniciada, hasta el ${formatearFechaHora(expira)}.`,
      'Si no pediste esta copia, cambia tu contraseña y avísanos en el centro de ayuda.',
    ],
    { label: 'Ir a Mis datos', url },
  );
}

export function ayuda(remitente: { nombre: string; email: string }, asunto: string, mensaje: string): Rendered {
  return render(`[Centro de ayuda] ${asunto} de ${remitente.nombre}`, [
    `${remitente.nombre} (${remitente.email}) escribió al centro de ayuda:`,
    `Asunto: ${asunto}`,
    mensaje,
  ]);
}

export function contacto(remitente: { nombre: string; email: string }, destinatario: string, asunto: string, mensaje: string): Rendered {
  return render(`${asunto} — mensaje de ${remitente.nombre}`, [
    `Hola ${destinatario}:`,
    `${remitente.nombre} te escribió desde la Comunidad Docente de ${PRODUCTO}. Puedes responderle directamente a este correo (${remitente.email}).`,
    mensaje,
  ]);
}

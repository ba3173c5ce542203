/**
 * Content for `npm run budgets` to measure the detail pages of a fresh install: a manual, a
 * library material (with its OA) and a processed capsule, uploaded through the API as the admin,
 * and the sample teacher activated (so the contact pages show their form, not 'not found').
 * Each sample is null when it could not be made; the budget run then reports the page skipped.
 */

import { pdf } from '../../tests/support/pdf.ts';
import { readOutbox } from '../../tests/support/server.ts';
import { video } from '../../tests/support/video.ts';
import type { Session } from './api.ts';

export interface Muestras {
  manualId: number | null;
  material: { id: number; oa: string } | null;
  capsulaId: number | null;
}

type Json = Record<string, unknown>;

function cliente(baseUrl: string, session: Session) {
  const headers = { authorization: `Bearer ${session.access}` };
  return {
    async get<T = Json>(ruta: string): Promise<T | null> {
      const res = await fetch(baseUrl + ruta, { headers });
      return res.ok ? ((await res.json()) as T) : null;
    },
    async post(ruta: string, campos: Record<string, string | string[]>, archivo: { data: Buffer; name: string; type: string }) {
      const form = new FormData();
      for (const [k, v] of Object.entries(campos)) for (const valor of [v].flat()) form.append(k, valor);
      form.set('archivo', new Blob([new Uint8Array(archivo.data)], { type: archivo.type }), archivo.name);
      const res = await fetch(baseUrl + ruta, { method: 'POST', headers, body: form });
      return res.status === 201 ? ((await res.json()) as { id: number }) : null;
    },
  };
}

const primero = <T>(lista: T[] | null): T | undefined => lista?.[0];

export async function crearMuestras(baseUrl: string, session: Session): Promise<Muestras> {
  const api = cliente(baseUrl, session);
  const area = (await api.get<{ id: number; nombre: string }[]>('/api/curriculum_escolar/areas/'))?.find((a) => a.nombre === 'Matemática');
  const nivel = area ? primero(await api.get<{ codigo: string }[]>(`/api/curriculum_escolar/niveles/?area=${area.id}`)) : undefined;
  const descripcion = 'Un texto de **muestra** con una lista:\n\n- uno\n- dos\n\ny un [enlace](https://example.cl).';

  const manual =
    area &&
    (await api.post(
      '/api/manuales/',
      { titulo: 'Manual de muestra', descripcion, extension: 'pdf', id_area: String(area.id) },
      { data: pdf(2), name: 'muestra.pdf', type: 'application/pdf' },
    ));

  const unidad =
    area && nivel
      ? primero(await api.get<{ id: number }[]>(`/api/curriculum_escolar/unidades/?area=${area.id}&nivel=${nivel.codigo}`))
      : undefined;
  const oa = unidad
    ? primero(await api.get<{ id: number; codigo: string }[]>(`/api/curriculum_escolar/oas/?unidad=${unidad.id}`))
    : undefined;
  const tipo = primero(await api.get<{ id: number }[]>('/api/bdocente/tipo/'));
  const material =
    area && nivel && oa && tipo
      ? await api.post(
          '/api/bdocente/',
          {
            titulo: 'Material de muestra',
            descripcion,
            extension: 'pdf',
            id_area: String(area.id),
            id_nivel: nivel.codigo,
            id_unidad: String(unidad?.id),
            oas: [String(oa.id)],
            tipo_material_docente: String(tipo.id),
          },
          { data: pdf(1), name: 'muestra.pdf', type: 'application/pdf' },
        )
      : null;

  const metodologia = primero(await api.get<{ id: number }[]>('/api/metodologias/'));
  const capsula =
    area && nivel && metodologia
      ? await api.post(
          '/api/capsulas/',
          {
            titulo: 'Cápsula de muestra',
            descripcion,
            extension: 'mp4',
            id_area: String(area.id),
            id_metodologia: String(metodologia.id),
            id_nivel: nivel.codigo,
          },
          { data: video({ seconds: 2 }), name: 'muestra.mp4', type: 'video/mp4' },
        )
      : null;
  // The detail page shows the player once the capsule is processed.
  const limite = Date.now() + 180_000;
  while (capsula && Date.now() < limite) {
    const procesando = await api.get<{ capsulas: unknown[] }>(`/api/capsulas/procesando?usuario_id=${session.usuarioId}`);
    if (procesando && procesando.capsulas.length === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }

  return {
    manualId: manual?.id ?? null,
    material: material && oa ? { id: material.id, oa: oa.codigo } : null,
    capsulaId: capsula?.id ?? null,
  };
}

/** Activates the invited sample teacher with the link of the invitation mail, as a person would. */
export async function activarDocente(baseUrl: string, dataDir: string, email: string): Promise<boolean> {
  const enlace = readOutbox(dataDir).findLast((m) => m.to.includes(email))?.link;
  const token = enlace ? new URL(enlace).pathname.split('/').filter(Boolean).at(-1) : undefined;
  if (!token) return false;
  const password = 'Muestra2026';
  const res = await fetch(`${baseUrl}/api/usuarios/activar-cuenta/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password, password_confirmation: password }),
  });
  return res.ok;
}

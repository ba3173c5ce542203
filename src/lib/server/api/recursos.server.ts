/**
 * The comment and like routes of the three kinds of content (capsules, materials, manuals): one
 * implementation, mounted by each section with its own input schemas (field names, 'no válido'
 * texts) and its own shape of a comment in the answers.
 */
import { Hono } from 'hono';
import type { z } from 'zod';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { Comentario, RecursosService, TipoRecurso } from '../services/recursos.server.ts';
import { type AppEnv, actor, autenticado, mismoUsuario } from './env.server.ts';
import { body, params } from './input.server.ts';
import { idParam } from './schemas.server.ts';

/** A new comment as a section's schema hands it over, whatever the section names the item's id. */
export interface ComentarioEntrada {
  id_usuario?: number | undefined;
  id_recurso: number;
  contenido: string;
  id_respuesta_comentario?: number | null | undefined;
}

/** A like or unlike, likewise. */
export interface LikeEntrada {
  id_usuario?: number | undefined;
  id_recurso: number;
  add: boolean;
}

export interface SeccionRecursos<T> {
  tipo: TipoRecurso;
  comentario: z.ZodType<ComentarioEntrada>;
  like: z.ZodType<LikeEntrada>;
  /** The section's shape of a comment in its answers (openapi.yaml). */
  salida: (comentario: Comentario) => T;
}

export function recursosRoutes<T>(recursos: RecursosService, keys: TokenKeys, seccion: SeccionRecursos<T>) {
  const auth = autenticado(keys);
  const { tipo, salida } = seccion;
  return new Hono<AppEnv>({ strict: false })
    .get('/comentarios/:id', auth, params(idParam), async (c) => {
      const { comentarios_base, comentarios_hijos } = await recursos.comentarios(tipo, c.req.valid('param').id, actor(c));
      return c.json({ comentarios_base: comentarios_base.map(salida), comentarios_hijos: comentarios_hijos.map(salida) }, 200);
    })
    .post('/comentarios', auth, body(seccion.comentario), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const comentario = await recursos.comentar(tipo, input.id_recurso, actor(c), input.contenido, input.id_respuesta_comentario ?? null);
      return c.json(salida(comentario), 201);
    })
    .post('/like', auth, body(seccion.like), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const likes = await recursos.like(tipo, input.id_recurso, actor(c), input.add);
      return c.json({ detail: input.add ? 'Me gusta registrado' : 'Me gusta quitado', likes }, 200);
    });
}

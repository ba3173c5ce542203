/**
 * The comment and like routes of the three kinds of content (capsules, materials, manuals): one
 * implementation, mounted by each section with its own input schemas (field names, 'no válido'
 * texts) and its own shape of a comment in the answers.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Esquema } from '../../api/contrato.ts';
import { comentarioSchema, paginaHiloSchema } from '../../validation/comentarios.ts';
import type { TokenKeys } from '../auth/tokens.server.ts';
import type { Comentario, RecursosService, TipoRecurso } from '../services/recursos.server.ts';
import { consulta, entrada, type Responde } from './contrato.server.ts';
import { type AppEnv, actor, autenticado, mismoUsuario } from './env.server.ts';
import { body, params, query } from './input.server.ts';
import { id, idParam } from './schemas.server.ts';

/** A new comment as a section's schema hands it over, whatever the section names the item's id. */
export interface ComentarioEntrada {
  id_usuario?: number | undefined;
  id_recurso: number;
  contenido: string;
  id_respuesta_comentario?: number | null | undefined;
}

/** The comment body of materials and manuals, which name the item `id_recurso` and state its kind. */
export const comentarioRecursoSchema = <T extends Esquema<'ComentarioRecurso'>['tipo_recurso']>(tipo: T, noValido: string) =>
  comentarioSchema.extend({
    id_usuario: id().optional(),
    id_recurso: id(noValido),
    tipo_recurso: z.literal(tipo, { error: `tipo_recurso debe ser '${tipo}'` }),
    id_respuesta_comentario: id().nullable().optional(),
  });

/** An edited comment: the same rule as a new one (the three sections share the body). */
const comentarioEdicion = entrada('PUT /api/capsulas/comentarios/{id}/', comentarioSchema);

/** A like or unlike, likewise. */
export interface LikeEntrada {
  id_usuario?: number | undefined;
  id_recurso: number;
  add: boolean;
}

type Comentarios<T> = { comentarios_base: T[]; comentarios_hijos: T[]; hay_mas: boolean; n_comentarios: number };

/** A mount prefix whose comment and like operations in the contract answer what these routes send. */
type PrefijoRecursos<P extends string, T> = Responde<`GET ${P}/comentarios/{id}/`, 200, Comentarios<T>> &
  Responde<`POST ${P}/comentarios/`, 201, T> &
  Responde<`PUT ${P}/comentarios/{id}/`, 200, T> &
  Responde<`POST ${P}/like/`, 200, Esquema<'LikeResultado'>>;

export interface SeccionRecursos<P extends string, T> {
  tipo: TipoRecurso;
  /** Where the section mounts these routes, e.g. '/api/capsulas': its operations type the answers. */
  prefijo: P & PrefijoRecursos<P, NoInfer<T>>;
  comentario: z.ZodType<ComentarioEntrada>;
  like: z.ZodType<LikeEntrada>;
  /** The section's shape of a comment in its answers (openapi.yaml). */
  salida: (comentario: Comentario) => T;
}

export function recursosRoutes<P extends string, T>(recursos: RecursosService, keys: TokenKeys, seccion: SeccionRecursos<P, T>) {
  const auth = autenticado(keys);
  const { tipo, salida } = seccion;
  return new Hono<AppEnv>({ strict: false })
    .get('/comentarios/:id', auth, params(idParam), query(consulta('GET /api/capsulas/comentarios/{id}/', paginaHiloSchema)), async (c) => {
      const hilo = await recursos.comentarios(tipo, c.req.valid('param').id, actor(c), c.req.valid('query'));
      const respuesta: Comentarios<T> = {
        comentarios_base: hilo.comentarios_base.map(salida),
        comentarios_hijos: hilo.comentarios_hijos.map(salida),
        hay_mas: hilo.hay_mas,
        n_comentarios: hilo.n_comentarios,
      };
      return c.json(respuesta, 200);
    })
    .post('/comentarios', auth, body(seccion.comentario), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const comentario = await recursos.comentar(tipo, input.id_recurso, actor(c), input.contenido, input.id_respuesta_comentario ?? null);
      return c.json(salida(comentario), 201);
    })
    .put('/comentarios/:id', auth, params(idParam), body(comentarioEdicion), async (c) => {
      const comentario = await recursos.editarComentario(tipo, c.req.valid('param').id, actor(c), c.req.valid('json').contenido);
      return c.json(salida(comentario), 200);
    })
    .delete('/comentarios/:id', auth, params(idParam), async (c) => {
      await recursos.eliminarComentario(tipo, c.req.valid('param').id, actor(c));
      return c.body(null, 204);
    })
    .post('/like', auth, body(seccion.like), async (c) => {
      const input = c.req.valid('json');
      if (input.id_usuario !== undefined) mismoUsuario(c, input.id_usuario);
      const likes = await recursos.like(tipo, input.id_recurso, actor(c), input.add);
      const respuesta: Esquema<'LikeResultado'> = { detail: input.add ? 'Me gusta registrado' : 'Me gusta quitado', likes };
      return c.json(respuesta, 200);
    });
}

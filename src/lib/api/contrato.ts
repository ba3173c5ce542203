/**
 * Names for the parts of the contract (openapi.yaml, generated into schema.d.ts) that code on
 * both sides uses. The server's services declare their results with these types instead of
 * copies, so a contract change the server does not follow fails `npm run typecheck`.
 */
import type { components, paths } from './schema';

/** A named schema of the contract (`components.schemas`). */
export type Esquema<N extends keyof components['schemas']> = components['schemas'][N];

type Metodo = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** An operation of the contract as its method and path, e.g. 'GET /api/capsulas/{id}'. */
export type Operacion = {
  [P in keyof paths]: { [M in Metodo]: [NonNullable<paths[P][M]>] extends [never] ? never : `${Uppercase<M>} ${P}` }[Metodo];
}[keyof paths];

type OperacionDe<K extends Operacion> = K extends `${infer M} ${infer P extends keyof paths}`
  ? NonNullable<paths[P][Lowercase<M> & Metodo]>
  : never;

type Respuestas<K extends Operacion> = OperacionDe<K>['responses'];
type CuerpoJson<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The statuses at which operation K answers with a JSON body. */
export type EstadoJson<K extends Operacion> = {
  [S in keyof Respuestas<K>]: [CuerpoJson<Respuestas<K>[S]>] extends [never] ? never : S;
}[keyof Respuestas<K>];

/** The statuses at which operation K answers with no body. */
export type EstadoVacio<K extends Operacion> = {
  [S in keyof Respuestas<K>]: Respuestas<K>[S] extends { content?: never } ? S : never;
}[keyof Respuestas<K>];

/** The JSON body operation K answers with status S. */
export type RespuestaJson<K extends Operacion, S extends EstadoJson<K>> = CuerpoJson<Respuestas<K>[S]>;

/** The operations that take query parameters. */
export type OperacionConConsulta = {
  [K in Operacion]: [NonNullable<OperacionDe<K>['parameters']['query']>] extends [never] ? never : K;
}[Operacion];

/** The query parameters of operation K. */
export type Consulta<K extends OperacionConConsulta> = NonNullable<OperacionDe<K>['parameters']['query']>;

/** The operations that take a request body. */
export type OperacionConEntrada = {
  [K in Operacion]: [NonNullable<OperacionDe<K>['requestBody']>] extends [never] ? never : K;
}[Operacion];

/** The request body of operation K, in whichever media type the contract gives (JSON, form, multipart). */
export type Entrada<K extends OperacionConEntrada> =
  NonNullable<OperacionDe<K>['requestBody']> extends { content: infer C } ? C[keyof C] : never;

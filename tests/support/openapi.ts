/**
 * Checks API responses against openapi.yaml, the hand-written contract.
 *
 * The whole document is registered in Ajv under one $id, so every schema is compiled from its own
 * place in the document (a JSON pointer) and its `$ref: '#/components/schemas/X'` resolve as they do
 * for any OpenAPI tool.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

type JsonObject = { readonly [key: string]: unknown };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/** A made-up absolute URI: Ajv needs one to resolve the document's `#/...` references against. */
const DOCUMENT_ID = 'https://entre-docentes.invalid/openapi.yaml';
const BODY_PREVIEW_CHARS = 2000;

export interface ContractOperation {
  method: Uppercase<HttpMethod>;
  template: string;
  operationId: string | undefined;
}

interface PathTemplate {
  template: string;
  pattern: RegExp;
  paramCount: number;
  literalLength: number;
}

interface Located {
  node: JsonObject;
  /** JSON-pointer segments of the node inside the document (after following `$ref`s). */
  at: readonly string[];
}

interface Contract {
  document: JsonObject;
  ajv: Ajv2020;
  templates: readonly PathTemplate[];
  validators: Map<string, ValidateFunction>;
}

let cached: Contract | undefined;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpMethod(value: string): value is HttpMethod {
  return HTTP_METHODS.some((method) => method === value);
}

function upper(method: HttpMethod): Uppercase<HttpMethod> {
  switch (method) {
    case 'get':
      return 'GET';
    case 'put':
      return 'PUT';
    case 'post':
      return 'POST';
    case 'delete':
      return 'DELETE';
    case 'patch':
      return 'PATCH';
    case 'head':
      return 'HEAD';
    case 'options':
      return 'OPTIONS';
    case 'trace':
      return 'TRACE';
  }
}

/** The parsed openapi.yaml (read once). */
export function contractDocument(): JsonObject {
  return contract().document;
}

function contract(): Contract {
  if (cached) return cached;
  const text = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
  const document: unknown = parse(text);
  if (!isObject(document)) throw new Error('openapi.yaml is not a YAML mapping');

  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // Ajv compiles the root of a schema it resolves into: declare the root's two OpenAPI members as
  // annotation keywords so strict mode (which catches misspelled keywords in our schemas) accepts them.
  ajv.addKeyword('components');
  ajv.addKeyword('paths');
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components, paths: document.paths });

  cached = { document, ajv, templates: pathTemplates(document), validators: new Map() };
  return cached;
}

function pathTemplates(document: JsonObject): PathTemplate[] {
  const paths = document.paths;
  if (!isObject(paths)) throw new Error('openapi.yaml has no paths');
  return Object.keys(paths)
    .map((template): PathTemplate => {
      const parts = template.split(/(\{[^}/]+\})/);
      const source = parts.map((part) => (/^\{[^}/]+\}$/.test(part) ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
      const params = parts.filter((part) => /^\{[^}/]+\}$/.test(part));
      return {
        template,
        pattern: new RegExp(`^${source}$`),
        paramCount: params.length,
        literalLength: template.length - params.join('').length,
      };
    })
    .sort((a, b) => a.paramCount - b.paramCount || b.literalLength - a.literalLength);
}

function unescapeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

/** Resolves a local reference such as '#/components/schemas/Usuario'; undefined when it does not exist. */
export function resolveLocalRef(ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`Only local references are supported, got ${ref}`);
  const segments = ref.slice(1).split('/').slice(1).map(unescapeSegment);
  return segments.reduce<unknown>((node, segment) => (isObject(node) ? node[segment] : undefined), contract().document);
}

function refSegments(ref: string): string[] {
  return ref.slice(1).split('/').slice(1).map(unescapeSegment);
}

/** Follows `$ref`s from a node until it reaches an object that is not a reference. */
function follow(node: unknown, at: readonly string[]): Located {
  let current = node;
  let where = at;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`Reference cycle at ${ref}`);
    seen.add(ref);
    current = resolveLocalRef(ref);
    where = refSegments(ref);
  }
  if (!isObject(current)) throw new Error(`openapi.yaml: nothing at /${where.join('/')}`);
  return { node: current, at: where };
}

function findTemplate(method: HttpMethod, concretePath: string): { template: string; operation: Located } {
  const { document, templates } = contract();
  const paths = document.paths;
  if (!isObject(paths)) throw new Error('openapi.yaml has no paths');

  const matching = templates.filter(({ pattern }) => pattern.test(concretePath));
  if (matching.length === 0) throw new Error(`Path ${concretePath} is not documented in openapi.yaml`);
  for (const { template } of matching) {
    const operation = follow(paths[template], ['paths', template]).node[method];
    if (isObject(operation)) return { template, operation: { node: operation, at: ['paths', template, method] } };
  }
  const candidates = matching.map(({ template }) => template).join(', ');
  throw new Error(`${method.toUpperCase()} ${concretePath} is not documented in openapi.yaml (paths: ${candidates})`);
}

function pathOf(pathOrUrl: string): string {
  const url = new URL(pathOrUrl, 'http://contract.invalid');
  return url.pathname;
}

function normalizeMethod(method: string): HttpMethod {
  const lower = method.toLowerCase();
  if (!isHttpMethod(lower)) throw new Error(`Unknown HTTP method ${method}`);
  return lower;
}

/** The documented operation a request goes to, or an Error when openapi.yaml does not have it. */
export function findOperation(method: string, path: string): ContractOperation {
  const lower = normalizeMethod(method);
  const { template, operation } = findTemplate(lower, pathOf(path));
  const operationId = operation.node.operationId;
  return { method: upper(lower), template, operationId: typeof operationId === 'string' ? operationId : undefined };
}

/** Every documented [method, path template] pair, e.g. ['GET', '/api/capsulas/{id}/']. */
export function contractOperations(): Array<readonly [Uppercase<HttpMethod>, string]> {
  const paths = contract().document.paths;
  if (!isObject(paths)) return [];
  return Object.entries(paths).flatMap(([template, item]) => {
    const pathItem = follow(item, ['paths', template]).node;
    return HTTP_METHODS.filter((method) => isObject(pathItem[method])).map((method) => [upper(method), template] as const);
  });
}

function findResponse(operation: Located, status: number): { key: string; response: Located } {
  const responses = operation.node.responses;
  if (!isObject(responses)) throw new Error(`openapi.yaml: /${operation.at.join('/')} has no responses`);
  const keys = [String(status), `${String(status).charAt(0)}XX`, 'default'];
  for (const key of keys) {
    if (key in responses) return { key, response: follow(responses[key], [...operation.at, 'responses', key]) };
  }
  throw new Error(`status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`);
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function validatorAt(at: readonly string[]): ValidateFunction {
  const { ajv, validators } = contract();
  const uri = `${DOCUMENT_ID}#/${at.map(escapeSegment).join('/')}`;
  const existing = validators.get(uri);
  if (existing) return existing;
  const validate = ajv.compile({ $ref: uri });
  validators.set(uri, validate);
  return validate;
}

function preview(text: string): string {
  return text.length > BODY_PREVIEW_CHARS ? `${text.slice(0, BODY_PREVIEW_CHARS)}…` : text;
}

/**
 * Throws unless the response is what openapi.yaml documents for this method and concrete path
 * (e.g. '/api/capsulas/3/'): a documented status, a documented content type and, for JSON, a body
 * valid against the schema. The response itself is not consumed (a clone is read).
 */
export async function expectMatchesContract(method: string, path: string, response: Response): Promise<void> {
  const lower = normalizeMethod(method);
  const concretePath = pathOf(path);
  const { template, operation } = findTemplate(lower, concretePath);
  const operationId = operation.node.operationId;
  const where = `${lower.toUpperCase()} ${concretePath} → ${response.status} (${typeof operationId === 'string' ? operationId : template})`;

  let documented: { key: string; response: Located };
  try {
    documented = findResponse(operation, response.status);
  } catch (error) {
    throw new Error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }

  const text = await response.clone().text();
  const content = documented.response.node.content;
  if (!isObject(content)) {
    if (text.length > 0) throw new Error(`${where}: openapi.yaml documents no body, got:\n${preview(text)}`);
    return;
  }

  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const mediaKey = Object.keys(content).find((key) => mediaTypeMatches(key, contentType));
  if (mediaKey === undefined) {
    throw new Error(
      `${where}: content type '${contentType}' is not documented (documented: ${Object.keys(content).join(', ')}); body:\n${preview(text)}`,
    );
  }
  if (!isJsonMediaType(contentType)) return;

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${where}: the body is not valid JSON:\n${preview(text)}`);
  }
  const mediaType = content[mediaKey];
  if (!isObject(mediaType) || mediaType.schema === undefined) return;

  const validate = validatorAt([...documented.response.at, 'content', mediaKey, 'schema']);
  if (validate(body)) return;
  const { ajv } = contract();
  const problems = ajv.errorsText(validate.errors, { separator: '\n  ', dataVar: 'body' });
  throw new Error(
    `${where} does not match openapi.yaml (response '${documented.key}'):\n  ${problems}\nbody:\n${preview(JSON.stringify(body, null, 2))}`,
  );
}

/**
 * Compiles the schema of every component and of every JSON request and response, so a typo in a
 * keyword or a dangling reference fails here rather than in the first API test that meets it.
 * Returns one message per schema that does not compile.
 */
export function compileContractSchemas(): string[] {
  const { document } = contract();
  const failures: string[] = [];
  const tryCompile = (at: readonly string[]): void => {
    try {
      validatorAt(at);
    } catch (error) {
      failures.push(`/${at.join('/')}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const components = document.components;
  const schemas = isObject(components) ? components.schemas : undefined;
  if (isObject(schemas)) for (const name of Object.keys(schemas)) tryCompile(['components', 'schemas', name]);

  const paths = document.paths;
  if (!isObject(paths)) return failures;
  for (const [template, item] of Object.entries(paths)) {
    const pathItem = follow(item, ['paths', template]);
    for (const method of HTTP_METHODS) {
      const operation = pathItem.node[method];
      if (!isObject(operation)) continue;
      const at = [...pathItem.at, method];
      const bodies: Located[] = [];
      if (operation.requestBody !== undefined) bodies.push(follow(operation.requestBody, [...at, 'requestBody']));
      const responses = operation.responses;
      if (isObject(responses)) {
        for (const key of Object.keys(responses)) bodies.push(follow(responses[key], [...at, 'responses', key]));
      }
      for (const body of bodies) {
        const content = body.node.content;
        if (!isObject(content)) continue;
        for (const [mediaKey, mediaType] of Object.entries(content)) {
          if (isObject(mediaType) && mediaType.schema !== undefined) {
            tryCompile([...body.at, 'content', mediaKey, 'schema']);
          }
        }
      }
    }
  }
  return failures;
}

import { describe, expect, it } from 'vitest';
import {
  compileContractSchemas,
  contractDocument,
  contractOperations,
  expectMatchesContract,
  findOperation,
  resolveLocalRef,
} from '../support/openapi.ts';

type JsonObject = { readonly [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function get(node: unknown, ...keys: string[]): unknown {
  return keys.reduce<unknown>((current, key) => (isObject(current) ? current[key] : undefined), node);
}

function operationNode(method: string, template: string): JsonObject {
  const node = get(contractDocument(), 'paths', template, method.toLowerCase());
  if (!isObject(node)) throw new Error(`${method} ${template} missing`);
  return node;
}

function responseOf(operation: JsonObject, status: string): JsonObject | undefined {
  const response = get(operation, 'responses', status);
  if (!isObject(response)) return undefined;
  const ref = response.$ref;
  if (typeof ref !== 'string') return response;
  const target = resolveLocalRef(ref);
  return isObject(target) ? target : undefined;
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

const usuario = {
  id: 5,
  primer_nombre: 'Ana',
  segundo_nombre: '',
  apellido_paterno: 'Pérez',
  apellido_materno: 'Soto',
  rut: '12.345.678-5',
  email: 'ana@colegio.cl',
  genero: 'Femenino',
  nacionalidad: 'Chilena',
  telefono: '+56912345678',
  fecha_nacimiento: null,
  foto_perfil: '/miniaturas/usuarios/5',
  rol: 'Profesor',
  groups: [],
  usuario_asociado: {
    colegio: [{ id: 1, nombre: 'Liceo Bicentenario' }],
    titulo_profesional: 'Profesora de Matemáticas',
    especialidad: ['Geometría'],
    area: ['Matemática'],
    nivel: ['7° Básico'],
  },
  oculto: false,
};

/** docs/SPEC.md section 7, plus the admin and health endpoints. */
const expectedCalls = [
  ['POST', '/auth/login/'],
  ['POST', '/auth/logout/'],
  ['POST', '/auth/renovar_token/'],
  ['GET', '/api/usuarios/activar-cuenta/'],
  ['POST', '/api/usuarios/activar-cuenta/'],
  ['POST', '/api/usuarios/recuperar-cuenta/'],
  ['GET', '/api/usuarios/cambiar-contrasena/{token}'],
  ['POST', '/api/usuarios/cambiar-contrasena/'],
  ['GET', '/api/capsulas/'],
  ['GET', '/api/capsulas/procesando'],
  ['GET', '/api/capsulas/{id}/'],
  ['GET', '/api/capsulas/comentarios/{id}/'],
  ['POST', '/api/capsulas/comentarios/'],
  ['PUT', '/api/capsulas/comentarios/{id}/'],
  ['DELETE', '/api/capsulas/comentarios/{id}/'],
  ['POST', '/api/capsulas/like/'],
  ['GET', '/api/capsulas/{id}/descargar/'],
  ['POST', '/api/capsulas/'],
  ['PUT', '/api/capsulas/'],
  ['DELETE', '/api/capsulas/{id}/'],
  ['GET', '/api/curriculum_escolar/areas/'],
  ['GET', '/api/curriculum_escolar/niveles/'],
  ['GET', '/api/curriculum_escolar/unidades/'],
  ['GET', '/api/curriculum_escolar/oas/'],
  ['GET', '/api/metodologias/'],
  ['GET', '/api/bdocente/tipo/'],
  ['GET', '/api/bdocente/cobertura/'],
  ['GET', '/api/colegios/'],
  ['GET', '/api/bdocente/'],
  ['GET', '/api/bdocente/{id}/'],
  ['DELETE', '/api/bdocente/{id}/'],
  ['GET', '/api/bdocente/{id}/descargar/'],
  ['POST', '/api/bdocente/'],
  ['PUT', '/api/bdocente/'],
  ['POST', '/api/bdocente/like/'],
  ['GET', '/api/bdocente/comentarios/{id}/'],
  ['POST', '/api/bdocente/comentarios/'],
  ['PUT', '/api/bdocente/comentarios/{id}/'],
  ['DELETE', '/api/bdocente/comentarios/{id}/'],
  ['GET', '/api/manuales/'],
  ['GET', '/api/manuales/{id}/'],
  ['DELETE', '/api/manuales/{id}/'],
  ['GET', '/api/manuales/{id}/descargar/'],
  ['POST', '/api/manuales/'],
  ['PUT', '/api/manuales/'],
  ['GET', '/api/manuales/comentarios/{id}/'],
  ['POST', '/api/manuales/comentarios/'],
  ['PUT', '/api/manuales/comentarios/{id}/'],
  ['DELETE', '/api/manuales/comentarios/{id}/'],
  ['POST', '/api/manuales/like/'],
  ['GET', '/api/usuarios/profesores/'],
  ['GET', '/api/usuarios/{id}/'],
  ['PUT', '/api/usuarios/{id}/'],
  ['POST', '/api/usuarios/{id}/enviar-email/'],
  ['POST', '/api/usuarios/{id}/enviar-email-ayuda/'],
  ['POST', '/api/usuarios/{id}/foto/'],
  ['GET', '/api/usuarios/{id}/contenidos-subidos/'],
  ['GET', '/api/usuarios/profesores/especialidades/'],
  ['POST', '/api/usuarios/profesores/{id}/especialidades/'],
  ['DELETE', '/api/usuarios/profesores/{id}/especialidades/{nombre}/'],
  ['POST', '/api/usuarios/profesores/{id}/areas/'],
  ['DELETE', '/api/usuarios/profesores/{id}/areas/{nombre}/'],
  ['POST', '/api/usuarios/profesores/{id}/niveles/'],
  ['DELETE', '/api/usuarios/profesores/{id}/niveles/{nombre}/'],
  ['GET', '/api/foro/categorias/'],
  ['POST', '/api/foro/categorias/'],
  ['GET', '/api/foro/categorias/{id}/'],
  ['PUT', '/api/foro/categorias/{id}/'],
  ['GET', '/api/foro/categorias/{id}/conversaciones/'],
  ['POST', '/api/foro/conversacion/nueva/'],
  ['GET', '/api/foro/conversacion/{id}/'],
  ['PUT', '/api/foro/conversacion/{id}/'],
  ['DELETE', '/api/foro/conversacion/{id}/'],
  ['GET', '/api/foro/conversacion/{id}/respuestas/'],
  ['GET', '/api/foro/conversacion/likes_usuario/'],
  ['POST', '/api/foro/conversacion/like/'],
  ['POST', '/api/foro/conversacion/comentar/'],
  ['GET', '/api/foro/comentario/likes_usuario/'],
  ['POST', '/api/foro/comentario/like/'],
  ['PUT', '/api/foro/comentario/{id}/'],
  ['DELETE', '/api/foro/comentario/{id}/'],
  ['GET', '/miniaturas/capsulas/{id}/'],
  ['GET', '/miniaturas/bdocente/{id}/'],
  ['GET', '/miniaturas/manuales/{id}/'],
  ['GET', '/miniaturas/usuarios/{id}'],
  ['GET', '/miniaturas/usuarios_min/{id}'],
  ['GET', '/miniaturas/categorias/{id}/'],
  ['GET', '/streaming/{id}/{file}'],
  ['POST', '/api/admin/usuarios/'],
  // a fresh activation link (by id; by email for the CLI).
  ['POST', '/api/admin/usuarios/{id}/reenviar-activacion/'],
  ['POST', '/api/admin/usuarios/reenviar-activacion/'],
  // The admin console's accounts and audit log (issue 16).
  ['GET', '/api/admin/usuarios/'],
  ['PATCH', '/api/admin/usuarios/{id}/'],
  ['POST', '/api/admin/usuarios/importar/'],
  ['GET', '/api/admin/registro/'],
  // The admin console's jobs, mail and statistics (issue 16).
  ['GET', '/api/admin/trabajos/'],
  ['POST', '/api/admin/trabajos/{id}/reintentar/'],
  ['GET', '/api/admin/correos/'],
  ['POST', '/api/admin/correos/{id}/reintentar/'],
  ['GET', '/api/admin/estadisticas/'],
  // Notifications (issue 17).
  ['GET', '/api/notificaciones/'],
  ['POST', '/api/notificaciones/leidas/'],
  ['GET', '/api/notificaciones/baja/{token}/'],
  ['POST', '/api/notificaciones/baja/{token}/'],
  ['GET', '/api/usuarios/{id}/preferencias/'],
  ['PUT', '/api/usuarios/{id}/preferencias/'],
  ['GET', '/healthz'],
  // Readiness apart from alerting, and backups (issue 28).
  ['GET', '/healthz/detalle'],
  ['GET', '/api/admin/respaldos/'],
  ['POST', '/api/admin/respaldos/'],
  ['GET', '/api/admin/respaldos/{nombre}/descargar/'],
  // Leaving the platform and the console's requests (issue 31).
  ['POST', '/api/usuarios/{id}/eliminar-cuenta/'],
  ['DELETE', '/api/usuarios/{id}/eliminar-cuenta/'],
  ['POST', '/api/admin/usuarios/{id}/eliminar/'],
  ['DELETE', '/api/admin/usuarios/{id}/eliminar/'],
  ['GET', '/api/admin/solicitudes/'],
  ['GET', '/api/admin/solicitudes/exportar/'],
  // A person's data and its copy (issue 31).
  ['GET', '/api/usuarios/{id}/mis-datos/'],
  ['GET', '/api/usuarios/{id}/copia-datos/'],
  ['POST', '/api/usuarios/{id}/copia-datos/'],
  ['GET', '/api/usuarios/{id}/copia-datos/{id_copia}/descargar/'],
  // 'Mis sesiones' (issue 32).
  ['GET', '/api/usuarios/{id}/sesiones/'],
  ['DELETE', '/api/usuarios/{id}/sesiones/'],
  ['DELETE', '/api/usuarios/{id}/sesiones/{sid}/'],
  // Sign-in with a school account (issue 32, OpenID Connect).
  ['GET', '/auth/oidc/{proveedor}/'],
  ['GET', '/auth/oidc/{proveedor}/callback'],
  ['GET', '/api/usuarios/{id}/identidades/'],
  ['DELETE', '/api/usuarios/{id}/identidades/{proveedor}/'],
  // Two-factor sign-in (issue 32).
  ['POST', '/auth/segundo-factor/'],
  ['GET', '/api/usuarios/{id}/totp/'],
  ['POST', '/api/usuarios/{id}/totp/'],
  ['DELETE', '/api/usuarios/{id}/totp/'],
  ['POST', '/api/usuarios/{id}/totp/confirmar/'],
  ['DELETE', '/api/admin/usuarios/{id}/totp/'],
  // The curriculum kept by the network (issue 30).
  ['GET', '/api/admin/curriculo/'],
  ['GET', '/api/admin/curriculo/{area}/{nivel}/'],
  ['POST', '/api/admin/curriculo/unidades/'],
  ['PUT', '/api/admin/curriculo/unidades/{id}/'],
  ['DELETE', '/api/admin/curriculo/unidades/{id}/'],
  ['PUT', '/api/admin/curriculo/oas/{id}/'],
  ['GET', '/api/admin/curriculo/exportar/'],
  ['GET', '/api/admin/curriculo/ejemplo/'],
  ['POST', '/api/admin/curriculo/importar/'],
  // Reports and the moderation queue (issue 17).
  ['POST', '/api/denuncias/'],
  ['GET', '/api/admin/denuncias/'],
  ['POST', '/api/admin/denuncias/{id}/resolver/'],
  // Resumable uploads, the tus 1.0.0 protocol (issue 18).
  ['OPTIONS', '/api/subidas/'],
  ['POST', '/api/subidas/'],
  ['OPTIONS', '/api/subidas/{id}/'],
  ['HEAD', '/api/subidas/{id}/'],
  ['PATCH', '/api/subidas/{id}/'],
  ['DELETE', '/api/subidas/{id}/'],
  // Issue 20: captions.
  ['GET', '/api/capsulas/{id}/subtitulos/'],
  ['POST', '/api/capsulas/{id}/subtitulos/'],
  ['DELETE', '/api/capsulas/{id}/subtitulos/{idioma}/'],
  // 'Leer' opens the PDF inline.
  ['GET', '/api/manuales/{id}/leer/'],
  // The privacy notice (issue 31).
  ['GET', '/api/privacidad/'],
  ['POST', '/api/privacidad/aceptar/'],
  ['PUT', '/api/admin/privacidad/'],
  // Saved items and collections (issue 35).
  ['GET', '/api/guardados/'],
  ['POST', '/api/guardados/'],
  ['DELETE', '/api/guardados/{tipo}/{id}/'],
  ['GET', '/api/colecciones/'],
  ['POST', '/api/colecciones/'],
  ['GET', '/api/colecciones/{id}/'],
  ['PUT', '/api/colecciones/{id}/'],
  ['DELETE', '/api/colecciones/{id}/'],
  ['POST', '/api/colecciones/{id}/items/'],
  ['DELETE', '/api/colecciones/{id}/items/{item}/'],
  ['POST', '/api/colecciones/{id}/copiar/'],
  ['GET', '/api/colecciones/{id}/mochila/'],
  ['GET', '/api/oas/{id}/mochila/'],
  // Following (issue 35, decision 0074), and the stop link of its mail.
  ['GET', '/api/seguimientos/'],
  ['POST', '/api/seguimientos/'],
  ['DELETE', '/api/seguimientos/{id}/'],
  ['GET', '/api/seguimientos/dejar/{token}/'],
  ['POST', '/api/seguimientos/dejar/{token}/'],
] as const;

const publicOperations = new Set([
  'login',
  'logout',
  'renewToken',
  'checkActivationToken',
  'activateAccount',
  'requestPasswordReset',
  'checkPasswordResetToken',
  'changePassword',
  'getHealth',
  // The unsubscribe link of notification mail works without signing in (RFC 8058).
  'paginaBajaCorreos',
  'bajaCorreos',
  // So does a follow's stop link (issue 35).
  'paginaDejarDeSeguir',
  'dejarDeSeguirPorEnlace',
  // tus discovery (OPTIONS) needs no session and reveals nothing.
  'opcionesSubidas',
  'opcionesSubida',
  // The privacy notice is for anyone to read (issue 31).
  'getPrivacyNotice',
  // Sign-in with a school account starts and ends without a session (issue 32).
  'iniciarOidc',
  'callbackOidc',
]);

describe('openapi.yaml', () => {
  it('parses as OpenAPI 3.1.0 with the agreed title', () => {
    expect(get(contractDocument(), 'openapi')).toBe('3.1.0');
    expect(get(contractDocument(), 'info', 'title')).toBe('Entre Docentes API');
  });

  it('has every call of docs/SPEC.md section 7, and nothing else', () => {
    const documented = contractOperations().map(([method, template]) => `${method} ${template}`);
    expect(documented.sort()).toEqual(expectedCalls.map(([method, template]) => `${method} ${template}`).sort());
  });

  it('gives every operation a unique camelCase operationId and one declared tag', () => {
    const declared = get(contractDocument(), 'tags');
    const tagNames = Array.isArray(declared) ? declared.map((tag) => get(tag, 'name')) : [];
    const ids = contractOperations().map(([method, template]) => {
      const operation = operationNode(method, template);
      expect(operation.operationId, `${method} ${template}`).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(operation.tags, `${method} ${template}`).toHaveLength(1);
      expect(tagNames, `${method} ${template}`).toContain(Array.isArray(operation.tags) ? operation.tags[0] : undefined);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resolves every $ref', () => {
    const dangling: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      if (!isObject(node)) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && resolveLocalRef(value) === undefined) dangling.push(value);
        walk(value);
      }
    };
    walk(contractDocument());
    expect(dangling).toEqual([]);
  });

  // Compiling the whole contract takes seconds on a busy 2-core machine: a limit, not a speed target.
  it('compiles every schema with strict Ajv', { timeout: 30_000 }, () => {
    expect(compileContractSchemas()).toEqual([]);
  });

  it('marks public operations with security [] and documents 401 on the others', () => {
    for (const [method, template] of contractOperations()) {
      const operation = operationNode(method, template);
      const id = String(operation.operationId);
      if (publicOperations.has(id)) {
        expect(operation.security, id).toEqual([]);
      } else {
        expect(responseOf(operation, '401'), id).toBeDefined();
      }
    }
  });

  it('documents 400 wherever there is a body, no 500 anywhere, and one error shape for every 4xx/503/507', () => {
    for (const [method, template] of contractOperations()) {
      const operation = operationNode(method, template);
      const id = String(operation.operationId);
      if (operation.requestBody !== undefined) expect(responseOf(operation, '400'), id).toBeDefined();
      const statuses = Object.keys(get(operation, 'responses') ?? {});
      expect(
        // 503: a part of the server does not run now; 507: no room to store (issue 28). Never a crash.
        statuses.filter((status) => status.startsWith('5') && status !== '503' && status !== '507'),
        id,
      ).toEqual([]);
      for (const status of statuses.filter((s) => s.startsWith('4'))) {
        expect(get(responseOf(operation, status), 'content', 'application/json', 'schema', '$ref'), `${id} ${status}`).toBe(
          '#/components/schemas/Error',
        );
      }
    }
  });
});

describe('the contract helper', () => {
  it('prefers literal paths over templates', () => {
    expect(findOperation('GET', '/api/usuarios/activar-cuenta/?token=x').operationId).toBe('checkActivationToken');
    expect(findOperation('GET', '/api/usuarios/7/').operationId).toBe('getUsuario');
    expect(findOperation('GET', '/api/bdocente/tipo/').operationId).toBe('listTiposMaterial');
    expect(findOperation('GET', '/api/capsulas/3/').template).toBe('/api/capsulas/{id}/');
    expect(findOperation('get', '/streaming/3/manifest.m3u8').operationId).toBe('getStreamingFile');
  });

  it('accepts a correct login response and rejects a wrong one', async () => {
    await expectMatchesContract('POST', '/auth/login/', json({ statusCode: 200, access: 'a.b.c', refresh: 'r', usuario }, 200));
    await expect(expectMatchesContract('POST', '/auth/login/', json({ statusCode: 200, access: 'a.b.c', usuario }, 200))).rejects.toThrow(
      /refresh/,
    );
    await expect(
      expectMatchesContract(
        'POST',
        '/auth/login/',
        json({ statusCode: 200, access: 'a', refresh: 'r', usuario: { ...usuario, genero: 'F' } }, 200),
      ),
    ).rejects.toThrow(/genero/);
  });

  it('resolves nested $refs (Usuario → PerfilDocente → Colegio)', async () => {
    const sinColegioId = { ...usuario, usuario_asociado: { ...usuario.usuario_asociado, colegio: [{ nombre: 'X' }] } };
    await expect(
      expectMatchesContract('POST', '/auth/login/', json({ statusCode: 200, access: 'a', refresh: 'r', usuario: sinColegioId }, 200)),
    ).rejects.toThrow(/colegio/);
  });

  it('checks error responses against the one error shape', async () => {
    const credenciales = {
      detail: 'Usuario y/o contraseña incorrectos',
      non_field_errors: ['Usuario y/o contraseña incorrectos'],
      statusCode: 401,
    };
    await expectMatchesContract('POST', '/auth/login/', json(credenciales, 401));
    await expect(expectMatchesContract('POST', '/auth/login/', json({ message: 'nope' }, 401))).rejects.toThrow(/detail/);
  });

  it('rejects what the contract does not document', async () => {
    await expect(expectMatchesContract('POST', '/auth/login/', json({ detail: 'x' }, 418))).rejects.toThrow(/418/);
    await expect(expectMatchesContract('GET', '/api/nada/', json({}, 200))).rejects.toThrow(/not documented/);
    await expect(expectMatchesContract('PATCH', '/auth/login/', json({}, 200))).rejects.toThrow(/not documented/);
    const text = new Response('404 Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
    await expect(expectMatchesContract('GET', '/api/capsulas/9/', text)).rejects.toThrow(/content type/);
  });

  it('accepts empty 204s and binary media', async () => {
    await expectMatchesContract('DELETE', '/api/capsulas/9/', new Response(null, { status: 204 }));
    const image = new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'image/webp' } });
    await expectMatchesContract('GET', '/miniaturas/usuarios/5', image);
  });
});

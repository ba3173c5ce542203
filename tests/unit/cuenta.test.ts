import { describe, expect, it } from 'vitest';
import { mensajeActivacion, mensajeCambio, mensajeIngreso, mensajeRecuperacion, tokenDeEnlace } from '../../src/islands/cuenta/cuenta';
import { destinoSeguro } from '../../src/lib/destino';

describe('docs/SPEC.md section 8 messages', () => {
  it('sign-in: the first non_field_errors message, else the default; the 429 detail; no response', () => {
    expect(mensajeIngreso(401, { non_field_errors: ['Primero', 'Segundo'] })).toBe('Primero');
    expect(mensajeIngreso(401, { detail: 'x' })).toBe('Usuario y/o contraseña incorrectos');
    expect(mensajeIngreso(400)).toBe('Usuario y/o contraseña incorrectos');
    expect(mensajeIngreso(429, { detail: 'Demasiados intentos. Espera 3 minutos antes de volver a intentarlo.' })).toBe(
      'Demasiados intentos. Espera 3 minutos antes de volver a intentarlo.',
    );
    expect(mensajeIngreso(null)).toBe('No se pudo conectar con el servidor. Revisa tu conexión e inténtalo nuevamente.');
  });

  it('reset request', () => {
    expect(mensajeRecuperacion(404)).toBe('Usuario no encontrado');
    expect(mensajeRecuperacion(403)).toBe('Usuario no activo');
    expect(mensajeRecuperacion(400)).toBe('El email ingresado no es válido');
    expect(mensajeRecuperacion(500)).toBe('El email ingresado no es válido');
    expect(mensajeRecuperacion(429, 'Demasiados intentos. Espera 2 minutos antes de volver a intentarlo.')).toBe(
      'Demasiados intentos. Espera 2 minutos antes de volver a intentarlo.',
    );
    expect(mensajeRecuperacion(null)).toBe('Hubo un error, no se pudo enviar el mail');
  });

  it('activation', () => {
    expect(mensajeActivacion(404)).toBe('Token no válido');
    expect(mensajeActivacion(400)).toBe('Token no válido');
    expect(mensajeActivacion(500)).toBe('No se pudo activar la cuenta');
    expect(mensajeActivacion(null)).toBe('Hubo un error, no se pudo activar la cuenta');
  });

  it('password change', () => {
    expect(mensajeCambio(404)).toBe('Token no válido');
    expect(mensajeCambio(400)).toBe('Token no válido');
    expect(mensajeCambio(500)).toBe('El email ingresado no es válido');
    expect(mensajeCambio(null)).toBe('Hubo un error, no se pudo cambiar la contraseña');
  });
});

describe('destinoSeguro', () => {
  const ORIGEN = 'https://docentes.example.cl';
  const destino = (s: string | null) => destinoSeguro(s, ORIGEN);

  it('keeps a page of this site, with its query and fragment', () => {
    expect(destino('/capsulas/?pagina=2')).toBe('/capsulas/?pagina=2');
    expect(destino('/foro/categorias/3/#respuestas')).toBe('/foro/categorias/3/#respuestas');
    expect(destino(`${ORIGEN}/manuales/`)).toBe('/manuales/');
    expect(destino('/biblioteca-docente/oa/MA07%20OA%2003')).toBe('/biblioteca-docente/oa/MA07%20OA%2003');
  });

  it('sends home what is empty or leaves the site, however the browser would read it (issue 32)', () => {
    for (const fuera of [
      null,
      '',
      'https://ejemplo.com/',
      '//ejemplo.com/',
      '/\\ejemplo.com/',
      '\\\\ejemplo.com/',
      '/\t/ejemplo.com/',
      '/\n/ejemplo.com/',
      '/\r\n/ejemplo.com',
      '\t//ejemplo.com',
      'javascript:alert(1)',
      'data:text/html,hola',
      'http://docentes.example.cl/capsulas/',
      'https://docentes.example.cl.ejemplo.com/',
      'https://usuario@ejemplo.com/',
    ]) {
      expect(destino(fuera), JSON.stringify(fuera)).toBe('/');
    }
  });

  it('never lands on an API or sign-in endpoint', () => {
    expect(destino('/api/usuarios/1/')).toBe('/');
    expect(destino('/auth/logout/')).toBe('/');
  });
});

describe('tokenDeEnlace', () => {
  it('reads the token after the path, raw or percent-encoded, or from ?token=', () => {
    expect(tokenDeEnlace('/activar-cuenta/abc_DEF-123', '', '/activar-cuenta/')).toBe('abc_DEF-123');
    expect(tokenDeEnlace('/activar-cuenta/abc/', '', '/activar-cuenta/')).toBe('abc');
    expect(tokenDeEnlace('/cambiar-contrase%C3%B1a/xyz', '', '/cambiar-contraseña/')).toBe('xyz');
    expect(tokenDeEnlace('/cambiar-contraseña/xyz', '', '/cambiar-contraseña/')).toBe('xyz');
    expect(tokenDeEnlace('/registrar/', '?token=t0k3n', '/registrar/')).toBe('t0k3n');
  });

  it('has no token when it is missing or malformed', () => {
    expect(tokenDeEnlace('/activar-cuenta/', '', '/activar-cuenta/')).toBeNull();
    expect(tokenDeEnlace('/registrar/', '', '/registrar/')).toBeNull();
    expect(tokenDeEnlace('/activar-cuenta/a%20b', '', '/activar-cuenta/')).toBeNull();
    expect(tokenDeEnlace('/activar-cuenta/%E0%A4%A', '', '/activar-cuenta/')).toBeNull();
  });
});

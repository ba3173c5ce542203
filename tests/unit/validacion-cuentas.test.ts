import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../../src/lib/server/api/errors.server.ts';
import { ayudaSchema, loginSchema, nuevaContrasenaSchema, recuperarCuentaSchema } from '../../src/lib/validation/cuentas.ts';

const errors = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error as never);
};

describe('login form (SPEC 5)', () => {
  it('requires an email and a password', () => {
    expect(errors(loginSchema, { email: '', password: '' })).toEqual({
      email: ['Debe ingresar un correo'],
      password: ['Debe ingresar una contraseña'],
    });
  });
  it('wants a well-formed email', () => {
    expect(errors(loginSchema, { email: 'ana@', password: 'x' })).toEqual({ email: ['Debe ingresar un correo válido'] });
  });
  it('accepts a valid pair and trims the email', () => {
    expect(loginSchema.parse({ email: ' ana@colegio.cl ', password: 'x' })).toEqual({ email: 'ana@colegio.cl', password: 'x' });
  });
});

describe('reset request (SPEC 5)', () => {
  it('has its own wording', () => {
    expect(errors(recuperarCuentaSchema, { email: '' })).toEqual({ email: ['Debe ingresar un email'] });
    expect(errors(recuperarCuentaSchema, { email: 'x' })).toEqual({ email: ['Debe ingresar un email válido'] });
  });
});

describe('new password (SPEC 5)', () => {
  it('requires both fields', () => {
    expect(errors(nuevaContrasenaSchema, { password: '', password_confirmation: '' })).toEqual({
      password: ['Debe ingresar una contraseña'],
      password_confirmation: ['Debe ingresar una contraseña'],
    });
  });
  it('marks a mismatch on both fields', () => {
    expect(errors(nuevaContrasenaSchema, { password: 'Abcdefg1', password_confirmation: 'Abcdefg2' })).toEqual({
      password: ['Contraseñas no coinciden'],
      password_confirmation: ['Contraseñas no coinciden'],
    });
  });
  it('wants 8 to 100 characters', () => {
    expect(errors(nuevaContrasenaSchema, { password: 'Ab1', password_confirmation: 'Ab1' }).password).toContain(
      'La contraseña debe tener entre 8 a 100 caracteres',
    );
    const long = `Ab1${'x'.repeat(98)}`;
    expect(errors(nuevaContrasenaSchema, { password: long, password_confirmation: long }).password).toEqual([
      'La contraseña debe tener entre 8 a 100 caracteres',
    ]);
  });
  it('wants upper case, lower case and a digit; special characters are allowed', () => {
    for (const weak of ['abcdefg1', 'ABCDEFG1', 'Abcdefgh']) {
      expect(errors(nuevaContrasenaSchema, { password: weak, password_confirmation: weak }).password).toEqual([
        'Contraseña debe incluir mayúsculas, minúsculas y numeros',
      ]);
    }
    expect(errors(nuevaContrasenaSchema, { password: 'Ñandú#2024', password_confirmation: 'Ñandú#2024' })).toEqual({});
  });
});

describe('help form (SPEC 5)', () => {
  it('requires a subject among the three and a message', () => {
    expect(errors(ayudaSchema, { asunto: '', mensaje: ' ' })).toEqual({
      asunto: ['Debe ingresar un asunto'],
      mensaje: ['Debe ingresar un mensaje'],
    });
    expect(ayudaSchema.parse({ asunto: 'Sugerencia', mensaje: 'Hola' })).toEqual({ asunto: 'Sugerencia', mensaje: 'Hola' });
  });
});

import { describe, expect, it } from 'vitest';
import { MENU, menuDe, seccionActual } from '../../src/lib/secciones';

describe('seccionActual', () => {
  it('highlights Inicio only on /, and each section on its whole subtree', () => {
    expect(seccionActual('/')).toBe('/');
    expect(seccionActual('/capsulas/')).toBe('/capsulas/');
    expect(seccionActual('/capsulas/12')).toBe('/capsulas/');
    expect(seccionActual('/capsulas')).toBe('/capsulas/');
    expect(seccionActual('/biblioteca-docente/subir')).toBe('/biblioteca-docente/');
    expect(seccionActual('/perfil/editar')).toBe('/perfil/editar');
    expect(seccionActual('/perfil/5')).toBe('/perfil/editar');
    expect(seccionActual('/ayuda')).toBeUndefined();
    expect(seccionActual('/foros/')).toBeUndefined();
    expect(seccionActual('/admin/trabajos')).toBe('/admin/usuarios');
    expect(seccionActual('/administrar')).toBeUndefined();
  });

  it("shows 'Administración' to admins only", () => {
    expect(menuDe(['admin']).at(-1)?.nombre).toBe('Administración');
    expect(menuDe([])).toBe(MENU);
    expect(MENU.some((s) => s.href.startsWith('/admin'))).toBe(false);
  });
});

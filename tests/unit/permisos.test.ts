import { describe, expect, it } from 'vitest';
import { esAdmin, puedeEditar } from '../../src/lib/permisos.ts';

const docente = { id: 7, groups: ['docente'] };
const admin = { id: 1, groups: ['docente', 'admin'] };

describe('who is an admin and who may edit what', () => {
  it('calls admin whoever carries the admin group, and nobody else', () => {
    expect(esAdmin(admin)).toBe(true);
    expect(esAdmin(docente)).toBe(false);
    expect(esAdmin({ groups: [] })).toBe(false);
  });

  it('lets the author and an admin edit, and no other person', () => {
    expect(puedeEditar(docente, 7)).toBe(true);
    expect(puedeEditar(docente, 8)).toBe(false);
    expect(puedeEditar(admin, 7)).toBe(true);
  });
});

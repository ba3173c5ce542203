/**
 * The console's words for what older audit log rows stored in an engineer's terms (issue 33): a job
 * named by its type and the local key by its command read in words, whatever the row holds.
 */
import { describe, expect, it } from 'vitest';
import { CLAVE_LOCAL, detalleLegible, QUIEN_CLAVE_LOCAL, TRABAJO_DESCONOCIDO, TRABAJOS } from '../../src/lib/palabras-admin.ts';

describe('detalleLegible', () => {
  it('names a job by what it does, an unknown one as an internal task', () => {
    expect(detalleLegible('Reintentó el trabajo n.º 5: Trabajo «subidas-limpieza»')).toBe(
      `Reintentó el trabajo n.º 5: ${TRABAJOS['subidas-limpieza']}`,
    );
    expect(detalleLegible('Reintentó el trabajo n.º 6: Trabajo «otra-cosa»')).toBe(`Reintentó el trabajo n.º 6: ${TRABAJO_DESCONOCIDO}`);
  });

  it('names the local key in words and leaves the rest as written', () => {
    expect(detalleLegible(`Invitó a ana@colegio.cl (${CLAVE_LOCAL})`)).toBe(`Invitó a ana@colegio.cl (${QUIEN_CLAVE_LOCAL})`);
    expect(detalleLegible('Creó la unidad «Números» (U1) en Matemática de 1° medio')).toBe(
      'Creó la unidad «Números» (U1) en Matemática de 1° medio',
    );
    expect(detalleLegible(`Trabajo «x» ${CLAVE_LOCAL}`)).not.toMatch(/npm|«x»/);
  });
});

/**
 * `npm run bench -- mochila` (issue 35): a collection's mochila must stream. In this process (its
 * own PGlite and disk storage, the real services), a teacher's collection holds BENCH_MOCHILA_MB
 * (default 1024) MB of generated manual files; its ZIP is read to the end as a download would,
 * while this process's RSS is sampled every 20 ms. The rise over the baseline stays near a few
 * stream buffers, not the size of the files.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { conEntornoBench, medirRss } from './bench-copia.ts';
import { formatTable } from './table.ts';

const MB = 1024 * 1024;

export const megasMochila = () => Number(process.env.BENCH_MOCHILA_MB ?? 1024);

export function benchMochila(mbTotal = megasMochila()): Promise<string> {
  return conEntornoBench('ed-bench-mochila-', mbTotal, async ({ services, persona, archivos, idsManuales }) => {
    const actor = { id: persona.id, groups: [] };
    const coleccion = await services.colecciones.crear(actor, { nombre: 'Mochila de prueba', descripcion: '', compartida: false });
    for (const id of idsManuales) await services.colecciones.agregar(actor, coleccion.id, { tipo: 'manual', id }, '');
    let bytes = 0;
    const medida = await medirRss(async () => {
      const plan = await services.colecciones.planMochila(await services.colecciones.obtener(actor, coleccion.id));
      const contar = new Writable({
        write(trozo: Buffer, _codificacion, listo) {
          bytes += trozo.length;
          listo();
        },
      });
      await pipeline(services.colecciones.zipMochila(plan), contar);
    });
    return formatTable(
      ['mochila of a collection (in process)', 'value'],
      [
        ['stored files', `${archivos} manuals, ${mbTotal} MB`],
        ['ZIP streamed', `${(bytes / MB).toFixed(1)} MB in ${medida.segundos.toFixed(1)} s`],
        [
          'RSS rise while streaming',
          `${medida.rise.toFixed(1)} MB (baseline ${medida.baseline.toFixed(0)} MB, peak ${medida.peak.toFixed(0)} MB)`,
        ],
      ],
      ['left', 'left'],
    );
  });
}

/**
 * `npm run bench -- mochila` (issue 35): a collection's mochila must stream. In this process (its
 * own PGlite and disk storage, the real services and job), a teacher's collection holds
 * BENCH_MOCHILA_MB (default 1024) MB of generated manual files. Two ways, while this process's
 * RSS is sampled every 20 ms: its ZIP read to the end as a download of a small mochila would be
 * (streamed on request), and the way a mochila over MOCHILA_DIRECTA_MB goes (decision 0076): the
 * first request queues the 'mochila' job, which writes the ZIP into storage. The rise over the
 * baseline stays near a few stream buffers, not the size of the files.
 */
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { conEntornoBench, medirRss } from './bench-copia.ts';
import { formatTable } from './table.ts';

const MB = 1024 * 1024;

export const megasMochila = () => Number(process.env.BENCH_MOCHILA_MB ?? 1024);

const describir = (m: { rise: number; baseline: number; peak: number }) =>
  `${m.rise.toFixed(1)} MB (baseline ${m.baseline.toFixed(0)} MB, peak ${m.peak.toFixed(0)} MB)`;

export function benchMochila(mbTotal = megasMochila()): Promise<string> {
  return conEntornoBench('ed-bench-mochila-', mbTotal, async ({ services, jobs, persona, archivos, idsManuales }) => {
    const actor = { id: persona.id, groups: [] };
    const { colecciones } = services;
    const coleccion = await colecciones.crear(actor, { nombre: 'Mochila de prueba', descripcion: '', compartida: false });
    for (const id of idsManuales) await colecciones.agregar(actor, coleccion.id, { tipo: 'manual', id }, '');
    const pedir = (encargar: boolean) => colecciones.pedirMochila(actor, 'coleccion', coleccion.id, { encargar });
    const pedido = await pedir(false);
    const plan = await colecciones.planMochila(pedido.leida);
    let bytes = 0;
    const enVivo = await medirRss(async () => {
      const contar = new Writable({
        write(trozo: Buffer, _codificacion, listo) {
          bytes += trozo.length;
          listo();
        },
      });
      await pipeline(colecciones.zipMochila(plan), contar);
    });
    if (pedido.directa) throw new Error('the bench’s mochila is under MOCHILA_DIRECTA_MB: no job to measure');
    const enTrabajo = await medirRss(async () => {
      await pedir(true);
      await jobs.drain();
    });
    const hecho = await pedir(false);
    const estado = hecho.directa ? null : hecho.estado;
    if (!estado?.lista) throw new Error('the mochila job did not finish');
    return formatTable(
      ['mochila of a collection (in process)', 'value'],
      [
        ['stored files', `${archivos} manuals, ${mbTotal} MB`],
        ['ZIP streamed on request', `${(bytes / MB).toFixed(1)} MB in ${enVivo.segundos.toFixed(1)} s`],
        ['RSS rise while streaming', describir(enVivo)],
        ['ZIP built by the job into storage', `${(estado.bytes / MB).toFixed(1)} MB in ${enTrabajo.segundos.toFixed(1)} s`],
        ['RSS rise while the job builds it', describir(enTrabajo)],
      ],
      ['left', 'left'],
    );
  });
}

/**
 * The browser's side of the data saver: what navigator.connection says, judged by the rule shared
 * with the server (src/lib/conexion.ts).
 */
import { conexionAhorro } from '../../lib/conexion.ts';

/** The browser's own connection, when it tells. */
export const conexionActual = (): boolean => conexionAhorro(Reflect.get(navigator, 'connection'));

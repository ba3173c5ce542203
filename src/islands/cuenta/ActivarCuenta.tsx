/** The welcome screen of an invited teacher (ActivarCuentaCompleto.tsx), its code with react-hook-form in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { ActivarCuentaProps } from './ActivarCuentaCompleto';

const cargar = () => import('./ActivarCuentaCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

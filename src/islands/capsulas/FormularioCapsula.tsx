/** The capsule upload and edit form (FormularioCapsulaCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { FormularioCapsulaProps } from './FormularioCapsulaCompleto';

const cargar = () => import('./FormularioCapsulaCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

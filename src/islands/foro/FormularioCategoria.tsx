/** The forum category create and edit form (FormularioCategoriaCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { FormularioCategoriaProps } from './FormularioCategoriaCompleto';

const cargar = () => import('./FormularioCategoriaCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

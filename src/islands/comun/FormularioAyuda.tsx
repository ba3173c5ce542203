/** The help centre form (FormularioAyudaCompleto.tsx), its code with react-hook-form in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from './diferido';

export type { FormularioAyudaProps } from './FormularioAyudaCompleto';

const cargar = () => import('./FormularioAyudaCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

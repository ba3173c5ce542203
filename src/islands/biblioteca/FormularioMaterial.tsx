/** The teacher-material upload and edit form (FormularioMaterialCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { FormularioMaterialProps } from './FormularioMaterialCompleto';

const cargar = () => import('./FormularioMaterialCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

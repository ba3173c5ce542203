/** The manual upload and edit form (FormularioManualCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { FormularioManualProps } from './FormularioManualCompleto';

const cargar = () => import('./FormularioManualCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

/** The 'Nuevo post' form (FormularioConversacionCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { FormularioConversacionProps } from './FormularioConversacionCompleto';

const cargar = () => import('./FormularioConversacionCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

/** The invitation form (FormularioInvitacionCompleto.tsx), its code in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

const cargar = () => import('./FormularioInvitacionCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

/** The new-password screen of a reset link (CambiarContrasenaCompleto.tsx), its code with react-hook-form in a chunk of its own (../comun/diferido.tsx). */
import { diferido } from '../comun/diferido';

export type { CambiarContrasenaProps } from './CambiarContrasenaCompleto';

const cargar = () => import('./CambiarContrasenaCompleto');
export default diferido(import.meta.env.SSR ? (await cargar()).default : null, cargar);

/**
 * 'Denunciar' on a capsule, material, manual, conversation or profile page (issue 17), as an
 * island of its own: the server renders it, so nothing moves, and its dialog arrives only when the
 * person points at it or presses it (BotonDenunciar). Hydrated with the page's islands it is
 * disabled until live; hydrated on intent (`alAlcance`, client:intencion) it is enabled from the
 * start, since the press that wakes it is replayed.
 */
import type { TipoDenuncia } from '../../lib/validation/denuncias';
import { useHidratado } from '../comun/Campo';
import { BotonDenunciar } from './BotonDenunciar';

export interface DenunciarPaginaProps {
  tipo: TipoDenuncia;
  id: number;
  /** Names the item in the button's accessible name: 'Denunciar este manual'. */
  nombre: string;
  /** Hydrated by client:intencion. */
  alAlcance?: boolean;
}

export default function DenunciarPagina({ alAlcance = false, ...props }: DenunciarPaginaProps) {
  const hidratado = useHidratado();
  return <BotonDenunciar {...props} activo={alAlcance || hidratado} />;
}

/** An author's photo or initials in the colour of their id (the island twin of src/pages/_componentes/AvatarAutor.astro). */
import { colorAutor, iniciales } from '../../lib/format';

export function AvatarAutor({ id, nombre, foto, tamano = 32 }: { id: number; nombre: string; foto: string; tamano?: number }) {
  // Custom properties read by .avatar-autor in foro.css.
  const estilo: Record<string, string> = { '--color-autor': colorAutor(id), '--tamano': `${tamano}px` };
  return (
    <span className="avatar-autor" style={estilo} aria-hidden="true">
      {foto ? <img src={foto} alt="" width={tamano} height={tamano} loading="lazy" decoding="async" /> : iniciales(nombre)}
    </span>
  );
}

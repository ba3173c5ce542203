/**
 * The forum's reactions (docs/SPEC.md section 3): ids, names, the counter each one has in the contract
 * and its icon in the forum's sprite. Comments take only Me gusta (1) and Me interesa (3).
 */
export const REACCIONES = [
  { id: 1, nombre: 'Me gusta', campo: 'n_me_gusta', icono: 'me-gusta' },
  { id: 2, nombre: 'Gran idea', campo: 'n_gran_idea', icono: 'gran-idea' },
  { id: 3, nombre: 'Me interesa', campo: 'n_me_interesa', icono: 'me-interesa' },
  { id: 4, nombre: 'Lo utilizaré', campo: 'n_lo_utilizare', icono: 'lo-utilizare' },
  { id: 5, nombre: 'Me asombra', campo: 'n_me_asombra', icono: 'me-asombra' },
] as const;

type Reaccion = (typeof REACCIONES)[number];
export type IdReaccion = Reaccion['id'];

export const REACCIONES_COMENTARIO = [REACCIONES[0], REACCIONES[2]] as const;
export type IdReaccionComentario = (typeof REACCIONES_COMENTARIO)[number]['id'];

export type Contadores = Record<Reaccion['campo'], number>;

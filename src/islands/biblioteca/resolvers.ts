/**
 * The material form's resolver, from the shared schema of src/lib/validation/biblioteca.ts
 * (docs/SPEC.md section 5's messages); loaded lazily (../comun/validacion.ts). The file check is
 * zod-free and comes with the form (src/lib/validation/archivos.ts).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { materialSchema } from '../../lib/validation/biblioteca';
import type { OA } from './curriculo';

/** The form's values: the selected OAs whole (their lists show code and description), the rest as the selects hold them. */
export interface ValoresMaterial {
  id_nivel: string;
  id_area: string;
  id_unidad: string;
  oas: OA[];
  titulo: string;
  descripcion: string;
  tipo_material_docente: string;
  licencia: string;
  visibilidad: string;
}

export const material = zodResolver(z.preprocess((v: ValoresMaterial) => ({ ...v, oas: v.oas.map((oa) => oa.id) }), materialSchema));

/**
 * Issue 36's generator: the Spanish words it builds titles, descriptions, names and comments from
 * (with accents, so the accent-free search is exercised), and a Zipf-like choice over the fuzz
 * suite's seeded generator (tests/fuzz/azar.ts).
 */
import type { Azar } from '../../../tests/fuzz/azar.ts';

/**
 * Zipf-like choice among `n` ranks (exponent `s`): rank 0 is the most chosen, most ranks are
 * rarely chosen, as OAs and items are in a real network.
 */
export function zipf(n: number, s = 1.05) {
  const acumulado = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** s;
    acumulado[i] = total;
  }
  return (r: Azar): number => {
    const x = r.siguiente() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((acumulado[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export const NOMBRES = [
  'Ana María',
  'José',
  'Camila',
  'Matías',
  'Valentina',
  'Benjamín',
  'Fernanda',
  'Tomás',
  'Catalina',
  'Joaquín',
  'Sofía',
  'Martín',
  'Isidora',
  'Agustín',
  'Florencia',
  'Vicente',
  'Antonia',
  'Cristóbal',
  'Josefa',
  'Ignacio',
];
export const APELLIDOS = [
  'González',
  'Muñoz',
  'Rojas',
  'Díaz',
  'Pérez',
  'Soto',
  'Contreras',
  'Silva',
  'Martínez',
  'Sepúlveda',
  'Morales',
  'Rodríguez',
  'López',
  'Fuentes',
  'Hernández',
  'Torres',
  'Araya',
  'Flores',
  'Espinoza',
  'Valenzuela',
  'Castillo',
  'Tapia',
  'Reyes',
  'Gutiérrez',
  'Castro',
  'Pizarro',
  'Álvarez',
  'Vásquez',
  'Sánchez',
  'Fernández',
];
export const COMUNAS = [
  'Ñuñoa',
  'Maipú',
  'Valparaíso',
  'Concepción',
  'Temuco',
  'Chillán',
  'Rancagua',
  'Talca',
  'Los Ángeles',
  'Curicó',
  'Puerto Montt',
  'Copiapó',
  'Quilpué',
  'Peñalolén',
  'La Florida',
  'Viña del Mar',
  'Coquimbo',
  'Valdivia',
  'Osorno',
  'Linares',
];
const TIPOS_TITULO = [
  'Guía de trabajo',
  'Presentación',
  'Rúbrica',
  'Planificación',
  'Evaluación',
  'Taller',
  'Ficha',
  'Actividad',
  'Cuadernillo',
  'Prueba',
];
/** Topics: the search words of the bench come from here ('fracción' and 'fraccion' find the same). */
export const TEMAS = [
  'fracciones equivalentes',
  'comprensión lectora',
  'ecuaciones de primer grado',
  'fotosíntesis',
  'la Independencia de Chile',
  'geometría: ángulos y polígonos',
  'vocabulario en inglés',
  'reacciones químicas',
  'movimiento rectilíneo',
  'educación física y salud',
  'creación musical',
  'el ciclo del agua',
  'números decimales',
  'producción de textos',
  'la célula',
  'pueblos originarios',
  'probabilidad y estadística',
  'energía eléctrica',
  'poesía y métrica',
  'educación ciudadana',
  'multiplicación y división',
  'los ecosistemas',
  'lectura en voz alta',
  'el sistema solar',
  'orientación vocacional',
  'artes visuales: el color',
  'tecnología y programación',
  'la Revolución Industrial',
  'álgebra: expresiones',
  'ortografía acentual',
];
const ADJETIVOS = [
  'para 5° básico',
  'con ejemplos',
  'en equipo',
  'para el aula',
  'paso a paso',
  'de repaso',
  'con rúbrica',
  'inclusiva',
  'interactiva',
  'para la casa',
];
const FRASES = [
  'Incluye actividades de inicio, desarrollo y cierre.',
  'Pensada para trabajar en grupos de cuatro estudiantes.',
  'Se adapta a estudiantes con necesidades educativas especiales.',
  'Contiene una pauta de corrección y sugerencias de retroalimentación.',
  'Usa ejemplos cotidianos de la región para motivar la discusión.',
  'La evaluación formativa se hace con tickets de salida.',
  'Aplicada en dos cursos con muy buenos resultados.',
  'Revisada por el equipo de UTP del establecimiento.',
];
const COMENTARIOS = [
  '¡Muchas gracias! La usé con mi curso y funcionó muy bien.',
  'Excelente material, lo adapté para 6° básico.',
  '¿Tienes la versión editable? Me serviría muchísimo.',
  'Muy claro, especialmente la parte de la evaluación.',
  'Lo probé en línea y también resultó.',
  'Gracias por compartir, colega.',
  'Agregué una actividad de cierre y quedó perfecta.',
  'Me encantó la rúbrica, la voy a utilizar el próximo semestre.',
];

export const titulo = (r: Azar, tema: string) => `${r.uno(TIPOS_TITULO)}: ${tema} ${r.uno(ADJETIVOS)}`;
export const descripcion = (r: Azar) => `${r.uno(FRASES)} ${r.uno(FRASES)}`;
export const comentario = (r: Azar) => r.uno(COMENTARIOS);

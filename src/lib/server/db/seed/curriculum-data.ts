/**
 * Seed data: Chilean national curriculum (Currículum Nacional, Mineduc).
 *
 * Sources
 * - OA codes and statements: Bases Curriculares as published on curriculumnacional.cl
 *   (1° a 6° básico, 2012; 7° básico a 2° medio, 2015; Bases Curriculares de Educación Parvularia, 2018).
 *   Statements are the published text; sub-items ("›" bullets) are joined as "enunciado: ítem; ítem; ítem."
 * - Unit membership: Programas de Estudio (Mineduc, Unidad de Currículum y Evaluación), cross-checked
 *   against curriculumnacional.cl unit/axis pages ("Indicadores Unidad N") and the Programas' "Visión global del año".
 *
 * Codes
 * - OA code = area code + level code + " OA " + two digits, e.g. "MA01 OA 01", "CN1M OA 04".
 * - Lenguaje y Comunicación (1°–6°) and Lengua y Literatura (7°–4° medio) share the official prefix "LE" (e.g. "LE08 OA 09").
 * - Ciencias Naturales keeps the single prefix "CN" up to 2° medio (Biología/Física/Química are axes, e.g. "CN1M OA 09").
 * - 3° y 4° medio (Bases 2019) use a different format ("FG-MATE-3M-OAC-01"); the modules of either level write
 *   "3y4" ("FG-EFS1-3y4-OAC-01") and are shipped once for both levels (curriculo/EF-3M-4M.json, decision 0084).
 * - Educación Parvularia is organised by núcleos, not asignaturas; its OA codes are "OA 01 LV NT"
 *   (núcleo + "NT" for both transition levels). The núcleos are seeded as areas for NT1/NT2; their OAs are
 *   shipped once for both levels (curriculo/LV-NT1-NT2.json, decision 0084).
 *
 * Coverage of `unidades` (units + OAs):
 * - Matemática: 1° básico (Unidad 1 only, OA list possibly not exhaustive), 7° y 8° básico, 1° y 2° medio (4 units each).
 * - Ciencias Naturales: 1° básico (4 units), 2° básico (Unidad 1), 4° básico (4 units), 6° básico (Unidades 1–2),
 *   7° básico (4 units), 1° medio (eje Biología, 4 units).
 * An OA may be worked in more than one unit in the Programas; here each OA is stored once, in the unit that
 * introduces it, because OA codes are unique in the database.
 */

export interface NivelSeed {
  codigo: string;
  nombre: string;
  ciclo: string;
  orden: number;
}

export interface AreaSeed {
  codigo: string;
  nombre: string;
  /** Level codes where this asignatura (or núcleo) is taught. */
  niveles: readonly string[];
}

export interface OASeed {
  codigo: string;
  descripcion: string;
}

export interface UnidadSeed {
  codigo: string;
  nombre: string;
  /** AreaSeed.codigo */
  area: string;
  /** NivelSeed.codigo */
  nivel: string;
  oas: readonly OASeed[];
}

const PARVULARIA = 'Educación Parvularia';
const PRIMER_CICLO = 'Primer Ciclo Básico';
const SEGUNDO_CICLO = 'Segundo Ciclo Básico';
const MEDIA = 'Educación Media';

export const niveles: readonly NivelSeed[] = [
  { codigo: 'NT1', nombre: 'Primer Nivel de Transición', ciclo: PARVULARIA, orden: 1 },
  { codigo: 'NT2', nombre: 'Segundo Nivel de Transición', ciclo: PARVULARIA, orden: 2 },
  { codigo: '01', nombre: '1° básico', ciclo: PRIMER_CICLO, orden: 3 },
  { codigo: '02', nombre: '2° básico', ciclo: PRIMER_CICLO, orden: 4 },
  { codigo: '03', nombre: '3° básico', ciclo: PRIMER_CICLO, orden: 5 },
  { codigo: '04', nombre: '4° básico', ciclo: PRIMER_CICLO, orden: 6 },
  { codigo: '05', nombre: '5° básico', ciclo: SEGUNDO_CICLO, orden: 7 },
  { codigo: '06', nombre: '6° básico', ciclo: SEGUNDO_CICLO, orden: 8 },
  { codigo: '07', nombre: '7° básico', ciclo: SEGUNDO_CICLO, orden: 9 },
  { codigo: '08', nombre: '8° básico', ciclo: SEGUNDO_CICLO, orden: 10 },
  { codigo: '1M', nombre: '1° medio', ciclo: MEDIA, orden: 11 },
  { codigo: '2M', nombre: '2° medio', ciclo: MEDIA, orden: 12 },
  { codigo: '3M', nombre: '3° medio', ciclo: MEDIA, orden: 13 },
  { codigo: '4M', nombre: '4° medio', ciclo: MEDIA, orden: 14 },
];

const NT = ['NT1', 'NT2'] as const;
const BASICA_1_8 = ['01', '02', '03', '04', '05', '06', '07', '08'] as const;
const BASICA_A_2M = [...BASICA_1_8, '1M', '2M'] as const;
const BASICA_A_4M = [...BASICA_A_2M, '3M', '4M'] as const;

export const areas: readonly AreaSeed[] = [
  // Educación Parvularia: núcleos of the Bases Curriculares (codes as used in their OA codes, e.g. "OA 01 PM NT").
  { codigo: 'IA', nombre: 'Identidad y Autonomía', niveles: NT },
  { codigo: 'CC', nombre: 'Convivencia y Ciudadanía', niveles: NT },
  { codigo: 'CM', nombre: 'Corporalidad y Movimiento', niveles: NT },
  { codigo: 'LV', nombre: 'Lenguaje Verbal', niveles: NT },
  { codigo: 'LA', nombre: 'Lenguajes Artísticos', niveles: NT },
  { codigo: 'EEN', nombre: 'Exploración del Entorno Natural', niveles: NT },
  { codigo: 'CES', nombre: 'Comprensión del Entorno Sociocultural', niveles: NT },
  { codigo: 'PM', nombre: 'Pensamiento Matemático', niveles: NT },
  // Educación Básica y Media.
  { codigo: 'LE', nombre: 'Lenguaje y Comunicación / Lengua y Literatura', niveles: BASICA_A_4M },
  { codigo: 'MA', nombre: 'Matemática', niveles: BASICA_A_4M },
  { codigo: 'CN', nombre: 'Ciencias Naturales', niveles: BASICA_A_2M },
  { codigo: 'HI', nombre: 'Historia, Geografía y Ciencias Sociales', niveles: BASICA_A_4M },
  { codigo: 'IN', nombre: 'Inglés', niveles: ['05', '06', '07', '08', '1M', '2M', '3M', '4M'] },
  { codigo: 'AR', nombre: 'Artes Visuales', niveles: BASICA_A_2M },
  { codigo: 'MU', nombre: 'Música', niveles: BASICA_A_2M },
  { codigo: 'EF', nombre: 'Educación Física y Salud', niveles: BASICA_A_4M },
  { codigo: 'TE', nombre: 'Tecnología', niveles: BASICA_A_2M },
  { codigo: 'OR', nombre: 'Orientación', niveles: BASICA_A_2M },
  // Formación General of 3° and 4° medio only (Bases 2019): codes FG-ECIU-3M-OAC-01, FG-FILO-4M-OAC-01.
  { codigo: 'EC', nombre: 'Educación Ciudadana', niveles: ['3M', '4M'] },
  { codigo: 'FI', nombre: 'Filosofía', niveles: ['3M', '4M'] },
  // Modules of either level (FG-CIBS-3y4-OAC-01, FG-DANZ-3y4-OAC-01; decision 0084).
  { codigo: 'CPC', nombre: 'Ciencias para la Ciudadanía', niveles: ['3M', '4M'] },
  { codigo: 'AT', nombre: 'Artes', niveles: ['3M', '4M'] },
];

export const unidades: readonly UnidadSeed[] = [
  // ───────────────────────────── Matemática ─────────────────────────────
  {
    // Programa de Estudio 1° básico, Unidad 1 (números, patrones repetitivos y medición no estandarizada del tiempo).
    // Only the OAs verified as part of this unit are listed; the Programa may include others.
    codigo: 'MA01 U1',
    nombre: 'Unidad 1',
    area: 'MA',
    nivel: '01',
    oas: [
      {
        codigo: 'MA01 OA 01',
        descripcion:
          'Contar números del 0 al 100 de 1 en 1, de 2 en 2, de 5 en 5 y de 10 en 10, hacia adelante y hacia atrás, empezando por cualquier número menor que 100.',
      },
      {
        codigo: 'MA01 OA 02',
        descripcion: 'Identificar el orden de los elementos de una serie, utilizando números ordinales del primero (1º) al décimo (10º).',
      },
      { codigo: 'MA01 OA 03', descripcion: 'Leer números del 0 al 20 y representarlos en forma concreta, pictórica y simbólica.' },
      {
        codigo: 'MA01 OA 04',
        descripcion:
          'Comparar y ordenar números del 0 al 20 de menor a mayor y/o viceversa, utilizando material concreto y/o usando software educativo.',
      },
      {
        codigo: 'MA01 OA 06',
        descripcion: 'Componer y descomponer números del 0 a 20 de manera aditiva, en forma concreta, pictórica y simbólica.',
      },
      {
        codigo: 'MA01 OA 11',
        descripcion:
          'Reconocer, describir, crear y continuar patrones repetitivos (sonidos, figuras, ritmos…) y patrones numéricos hasta el 20, crecientes y decrecientes, usando material concreto, pictórico y simbólico, de manera manual y/o por medio de software educativo.',
      },
      { codigo: 'MA01 OA 16', descripcion: 'Usar unidades no estandarizadas de tiempo para comparar la duración de eventos cotidianos.' },
    ],
  },
  {
    codigo: 'MA07 U1',
    nombre: 'Unidad 1: Números',
    area: 'MA',
    nivel: '07',
    oas: [
      {
        codigo: 'MA07 OA 01',
        descripcion:
          'Mostrar que comprenden la adición y la sustracción de números enteros: representando los números enteros en la recta numérica; representándolas de manera concreta, pictórica y simbólica; dándole significado a los símbolos + y - según el contexto (por ejemplo: un movimiento en una dirección seguido de un movimiento equivalente en la posición opuesta no representa ningún cambio de posición); resolviendo problemas en contextos cotidianos.',
      },
      {
        codigo: 'MA07 OA 02',
        descripcion:
          'Explicar la multiplicación y la división de fracciones positivas: utilizando representaciones concretas, pictóricas y simbólicas; relacionándolas con la multiplicación y la división de números decimales.',
      },
      {
        codigo: 'MA07 OA 03',
        descripcion:
          'Resolver problemas que involucren la multiplicación y la división de fracciones y de decimales positivos de manera concreta, pictórica y simbólica (de forma manual y/o con software educativo).',
      },
      {
        codigo: 'MA07 OA 04',
        descripcion:
          'Mostrar que comprenden el concepto de porcentaje: representándolo de manera pictórica; calculando de varias maneras; aplicándolo a situaciones sencillas.',
      },
      {
        codigo: 'MA07 OA 05',
        descripcion:
          'Utilizar potencias de base 10 con exponente natural: usando los términos potencia, base, exponente, elevado; definiendo y usando el exponente 0 en el sistema decimal; expresando números naturales en notación científica (sistema decimal); resolviendo problemas, usando la notación científica.',
      },
    ],
  },
  {
    codigo: 'MA07 U2',
    nombre: 'Unidad 2: Álgebra y funciones',
    area: 'MA',
    nivel: '07',
    oas: [
      {
        codigo: 'MA07 OA 06',
        descripcion:
          'Utilizar el lenguaje algebraico para generalizar relaciones entre números, para establecer y formular reglas y propiedades y construir ecuaciones.',
      },
      {
        codigo: 'MA07 OA 07',
        descripcion:
          'Reducir expresiones algebraicas, reuniendo términos semejantes para obtener expresiones de la forma ax + by + cz (a, b, c ∈ Z).',
      },
      {
        codigo: 'MA07 OA 08',
        descripcion:
          'Mostrar que comprenden las proporciones directas e inversas: realizando tablas de valores para relaciones proporcionales; graficando los valores de la tabla; explicando las características de la gráfica; resolviendo problemas de la vida diaria y de otras asignaturas.',
      },
      {
        codigo: 'MA07 OA 09',
        descripcion:
          'Modelar y resolver problemas diversos de la vida diaria y de otras asignaturas, que involucran ecuaciones e inecuaciones lineales de la forma: ax = b; x/a = b (a, b y c ∈ N; a ≠ 0); ax < b; ax > b; x/a < b; x/a > b (a, b y c ∈ N; a ≠ 0).',
      },
    ],
  },
  {
    codigo: 'MA07 U3',
    nombre: 'Unidad 3: Geometría',
    area: 'MA',
    nivel: '07',
    oas: [
      { codigo: 'MA07 OA 10', descripcion: 'Descubrir relaciones que involucran ángulos exteriores o interiores de diferentes polígonos.' },
      {
        codigo: 'MA07 OA 11',
        descripcion:
          'Mostrar que comprenden el círculo: describiendo las relaciones entre el radio, el diámetro y el perímetro del círculo; estimando de manera intuitiva el perímetro y el área de un círculo; aplicando las aproximaciones del perímetro y del área en la resolución de problemas geométricos de otras asignaturas y de la vida diaria; identificándolo como lugar geométrico.',
      },
      {
        codigo: 'MA07 OA 12',
        descripcion:
          'Construir objetos geométricos de manera manual y/o con software educativo: líneas, como las perpendiculares, las paralelas, las bisectrices y alturas en triángulos y cuadriláteros; puntos, como el punto medio de un segmento, el centro de gravedad, el centro del círculo inscrito y del circunscrito de un triángulo; triángulos y cuadriláteros congruentes.',
      },
      { codigo: 'MA07 OA 13', descripcion: 'Desarrollar y aplicar la fórmula del área de triángulos, paralelogramos y trapecios.' },
      {
        codigo: 'MA07 OA 14',
        descripcion: 'Identificar puntos en el plano cartesiano, usando pares ordenados y vectores de forma concreta (juegos) y pictórica.',
      },
    ],
  },
  {
    codigo: 'MA07 U4',
    nombre: 'Unidad 4: Probabilidad y estadística',
    area: 'MA',
    nivel: '07',
    oas: [
      {
        codigo: 'MA07 OA 15',
        descripcion: 'Estimar el porcentaje de algunas características de una población desconocida por medio del muestreo.',
      },
      {
        codigo: 'MA07 OA 16',
        descripcion:
          'Representar datos obtenidos en una muestra mediante tablas de frecuencias absolutas y relativas, utilizando gráficos apropiados, de manera manual y/o con software educativo.',
      },
      {
        codigo: 'MA07 OA 17',
        descripcion:
          'Mostrar que comprenden las medidas de tendencia central y el rango: determinando las medidas de tendencia central para realizar inferencias sobre la población; determinando la medida de tendencia central adecuada para responder un problema planteado; utilizándolos para comparar dos poblaciones; determinando el efecto de un dato que es muy diferente a los otros.',
      },
      {
        codigo: 'MA07 OA 18',
        descripcion:
          'Explicar las probabilidades de eventos obtenidos por medio de experimentos de manera manual y/o con software educativo: estimándolas de manera intuitiva; utilizando frecuencias relativas; relacionándolas con razones, fracciones o porcentaje.',
      },
      {
        codigo: 'MA07 OA 19',
        descripcion:
          'Comparar las frecuencias relativas de un evento obtenidas al repetir un experimento de forma manual y/o con software educativo, con la probabilidad obtenida de manera teórica, usando diagramas de árbol, tablas o gráficos.',
      },
    ],
  },
  {
    codigo: 'MA08 U1',
    nombre: 'Unidad 1: Números',
    area: 'MA',
    nivel: '08',
    oas: [
      {
        codigo: 'MA08 OA 01',
        descripcion:
          'Mostrar que comprenden la multiplicación y la división de números enteros: representándolos de manera concreta, pictórica y simbólica; aplicando procedimientos usados en la multiplicación y la división de números naturales; aplicando la regla de los signos de la operación; resolviendo problemas rutinarios y no rutinarios.',
      },
      {
        codigo: 'MA08 OA 02',
        descripcion:
          'Utilizar las operaciones de multiplicación y división con los números racionales en el contexto de la resolución de problemas: representándolos en la recta numérica; involucrando diferentes conjuntos numéricos (fracciones, decimales y números enteros).',
      },
      {
        codigo: 'MA08 OA 03',
        descripcion:
          'Explicar la multiplicación, la división y el proceso de formar potencias de potencias de base natural y exponente natural hasta 3, de manera concreta, pictórica y simbólica.',
      },
      {
        codigo: 'MA08 OA 04',
        descripcion:
          'Mostrar que comprenden las raíces cuadradas de números naturales: estimándolas de manera intuitiva; representándolas de manera concreta, pictórica y simbólica; aplicándolas en situaciones geométricas y en la vida diaria.',
      },
      {
        codigo: 'MA08 OA 05',
        descripcion:
          'Resolver problemas que involucran variaciones porcentuales en contextos diversos, usando representaciones pictóricas y registrando el proceso de manera simbólica; por ejemplo: el interés anual del ahorro.',
      },
    ],
  },
  {
    codigo: 'MA08 U2',
    nombre: 'Unidad 2: Álgebra y funciones',
    area: 'MA',
    nivel: '08',
    oas: [
      {
        codigo: 'MA08 OA 06',
        descripcion:
          'Mostrar que comprenden las operaciones de expresiones algebraicas: representándolas de manera pictórica y simbólica; relacionándolas con el área de cuadrados, rectángulos y volúmenes de paralelepípedos; determinando formas factorizadas.',
      },
      {
        codigo: 'MA08 OA 07',
        descripcion:
          'Mostrar que comprenden la noción de función por medio de un cambio lineal: utilizando tablas; usando metáforas de máquinas; estableciendo reglas entre x e y; representando de manera gráfica (plano cartesiano, diagramas de Venn), de manera manual y/o con software educativo.',
      },
      {
        codigo: 'MA08 OA 08',
        descripcion:
          'Modelar situaciones de la vida diaria y de otras asignaturas, usando ecuaciones lineales de la forma: ax = b; x/a = b, a ≠ 0; ax + b = c; x/a + b = c; ax = b + cx; a(x + b) = c; ax + b = cx + d (a, b, c, d, e ∈ Q).',
      },
      {
        codigo: 'MA08 OA 09',
        descripcion:
          'Resolver inecuaciones lineales con coeficientes racionales en el contexto de la resolución de problemas, por medio de representaciones gráficas, simbólicas, de manera manual y/o con software educativo.',
      },
      {
        codigo: 'MA08 OA 10',
        descripcion:
          'Mostrar que comprenden la función afín: generalizándola como la suma de una constante con una función lineal; trasladando funciones lineales en el plano cartesiano; determinando el cambio constante de un intervalo a otro, de manera gráfica y simbólica, de manera manual y/o con software educativo; relacionándola con el interés simple; utilizándola para resolver problemas de la vida diaria y de otras asignaturas.',
      },
    ],
  },
  {
    codigo: 'MA08 U3',
    nombre: 'Unidad 3: Geometría',
    area: 'MA',
    nivel: '08',
    oas: [
      {
        codigo: 'MA08 OA 11',
        descripcion:
          'Desarrollar las fórmulas para encontrar el área de superficies y el volumen de prismas rectos con diferentes bases y cilindros: estimando de manera intuitiva área de superficie y volumen; desplegando la red de prismas rectos para encontrar la fórmula del área de superficie; aplicando las aproximaciones del perímetro y del área en la resolución de problemas; aplicando las fórmulas a la resolución de problemas geométricos y de la vida diaria.',
      },
      {
        codigo: 'MA08 OA 12',
        descripcion:
          'Explicar, de manera concreta, pictórica y simbólica, la validez del teorema de Pitágoras y aplicar a la resolución de problemas geométricos y de la vida cotidiana, de manera manual y/o con software educativo.',
      },
      {
        codigo: 'MA08 OA 13',
        descripcion:
          'Describir la posición y el movimiento (traslaciones, rotaciones y reflexiones) de figuras 2D, de manera manual y/o con software educativo, utilizando: los vectores para la traslación; los ejes del plano cartesiano como ejes de reflexión; los puntos del plano para las rotaciones.',
      },
      {
        codigo: 'MA08 OA 14',
        descripcion:
          'Componer rotaciones, traslaciones y reflexiones en el plano cartesiano y en el espacio, de manera manual y/o con software educativo, y aplicar a las simetrías de polígonos y poliedros, y a la resolución de problemas geométricos relacionados con el arte.',
      },
    ],
  },
  {
    codigo: 'MA08 U4',
    nombre: 'Unidad 4: Probabilidad y estadística',
    area: 'MA',
    nivel: '08',
    oas: [
      {
        codigo: 'MA08 OA 15',
        descripcion:
          'Mostrar que comprenden las medidas de posición, percentiles y cuartiles: identificando la población que está sobre o bajo el percentil; representándolas con diagramas, incluyendo el diagrama de cajón, de manera manual y/o con software educativo; utilizándolas para comparar poblaciones.',
      },
      {
        // Published text on curriculumnacional.cl (its second item repeats wording from MA08 OA 15).
        codigo: 'MA08 OA 16',
        descripcion:
          'Evaluar la forma en que los datos están presentados: comparando la información de los mismos datos representada en distintos tipos de gráficos para determinar fortalezas y debilidades de cada uno; representándolas con diagramas, incluyendo el diagrama de cajón, de manera manual y/o con software educativo; detectando manipulaciones de gráficos para representar datos.',
      },
      {
        codigo: 'MA08 OA 17',
        descripcion:
          'Explicar el principio combinatorio multiplicativo: a partir de situaciones concretas; representándolo con tablas y árboles regulares, de manera manual y/o con software educativo; utilizándolo para calcular la probabilidad de un evento compuesto.',
      },
    ],
  },
  {
    codigo: 'MA1M U1',
    nombre: 'Unidad 1: Números',
    area: 'MA',
    nivel: '1M',
    oas: [
      { codigo: 'MA1M OA 01', descripcion: 'Calcular operaciones con números racionales en forma simbólica.' },
      {
        codigo: 'MA1M OA 02',
        descripcion:
          'Mostrar que comprenden las potencias de base racional y exponente entero: transfiriendo propiedades de la multiplicación y división de potencias a los ámbitos numéricos correspondientes; relacionándolas con el crecimiento y decrecimiento de cantidades; resolviendo problemas de la vida diaria y otras asignaturas.',
      },
    ],
  },
  {
    codigo: 'MA1M U2',
    nombre: 'Unidad 2: Álgebra y funciones',
    area: 'MA',
    nivel: '1M',
    oas: [
      {
        codigo: 'MA1M OA 03',
        descripcion:
          'Desarrollar los productos notables de manera concreta, pictórica y simbólica: transformando productos en sumas y viceversa; aplicándolos a situaciones concretas; completando el cuadrado del binomio; utilizándolas en la reducción y desarrollo de expresiones algebraicas.',
      },
      {
        codigo: 'MA1M OA 04',
        descripcion:
          'Resolver sistemas de ecuaciones lineales (2x2) relacionados con problemas de la vida diaria y de otras asignaturas, mediante representaciones gráficas y simbólicas, de manera manual y/o con software educativo.',
      },
      {
        codigo: 'MA1M OA 05',
        descripcion:
          'Graficar relaciones lineales en dos variables de la forma f(x, y) = ax + by; por ejemplo: un haz de rectas paralelas en el plano cartesiano, líneas de nivel en planos inclinados (techo), propagación de olas en el mar y la formación de algunas capas de rocas: creando tablas de valores con a, b fijo y x, y variable; representando una ecuación lineal dada por medio de un gráfico, de manera manual y/o con software educativo; escribiendo la relación entre las variables de un gráfico dado; por ejemplo, variando c en la ecuación ax + by = c; (a, b, c ∈ Q) (decimales hasta la décima).',
      },
    ],
  },
  {
    codigo: 'MA1M U3',
    nombre: 'Unidad 3: Geometría',
    area: 'MA',
    nivel: '1M',
    oas: [
      {
        codigo: 'MA1M OA 06',
        descripcion:
          'Desarrollar la fórmula de los valores del área y del perímetro de sectores y segmentos circulares, respectivamente, a partir de ángulos centrales de 60°, 90°, 120° y 180°, por medio de representaciones concretas.',
      },
      {
        codigo: 'MA1M OA 07',
        descripcion:
          'Desarrollar las fórmulas para encontrar el área de la superficie y el volumen del cono: desplegando la red del cono para la fórmula del área de superficie; experimentando de manera concreta para encontrar la relación entre el volumen del cilindro y el cono; aplicando las fórmulas a la resolución de problemas geométricos y de la vida diaria.',
      },
      {
        codigo: 'MA1M OA 08',
        descripcion:
          'Mostrar que comprenden el concepto de homotecia: relacionándola con la perspectiva, el funcionamiento de instrumentos ópticos y el ojo humano; midiendo segmentos adecuados para determinar las propiedades de la homotecia; aplicando propiedades de la homotecia en la construcción de objetos, de manera manual y/o con software educativo; resolviendo problemas de la vida cotidiana y de otras asignaturas.',
      },
      {
        codigo: 'MA1M OA 09',
        descripcion:
          'Desarrollar el teorema de Tales mediante las propiedades de la homotecia, para aplicarlo en la resolución de problemas.',
      },
      {
        codigo: 'MA1M OA 10',
        descripcion:
          'Aplicar propiedades de semejanza y de proporcionalidad a modelos a escala y otras situaciones de la vida diaria y otras asignaturas.',
      },
      {
        codigo: 'MA1M OA 11',
        descripcion:
          'Representar el concepto de homotecia de forma vectorial, relacionándolo con el producto de un vector por un escalar, de manera manual y/o con software educativo.',
      },
    ],
  },
  {
    codigo: 'MA1M U4',
    nombre: 'Unidad 4: Probabilidad y estadística',
    area: 'MA',
    nivel: '1M',
    oas: [
      {
        codigo: 'MA1M OA 12',
        descripcion:
          'Registrar distribuciones de dos características distintas, de una misma población, en una tabla de doble entrada y en una nube de puntos.',
      },
      {
        codigo: 'MA1M OA 13',
        descripcion:
          'Comparar poblaciones mediante la confección de gráficos "xy" para dos atributos de muestras, de manera concreta y pictórica: utilizando nubes de puntos en dos colores; separando la nube por medio de una recta trazada de manera intuitiva.',
      },
      {
        codigo: 'MA1M OA 14',
        descripcion:
          'Desarrollar las reglas de las probabilidades, la regla aditiva, la regla multiplicativa y la combinación de ambas, de manera concreta, pictórica y simbólica, de manera manual y/o con software educativo, en el contexto de la resolución de problemas.',
      },
      {
        codigo: 'MA1M OA 15',
        descripcion:
          'Mostrar que comprenden el concepto de azar: experimentando con la tabla de Galton y con paseos aleatorios sencillos de manera manual y/o con software educativo; realizando análisis estadísticos, empezando por frecuencias relativas; utilizando probabilidades para describir el comportamiento azaroso; resolviendo problemas de la vida diaria y de otras asignaturas.',
      },
    ],
  },
  {
    codigo: 'MA2M U1',
    nombre: 'Unidad 1: Números',
    area: 'MA',
    nivel: '2M',
    oas: [
      {
        codigo: 'MA2M OA 01',
        descripcion:
          'Realizar cálculos y estimaciones que involucren operaciones con números reales: utilizando la descomposición de raíces y las propiedades de las raíces; combinando raíces con números racionales; resolviendo problemas que involucren estas operaciones en contextos diversos.',
      },
      {
        codigo: 'MA2M OA 02',
        descripcion:
          'Mostrar que comprenden las relaciones entre potencias, raíces enésimas y logaritmos: comparando representaciones de potencias de exponente racional con raíces enésimas en la recta numérica; convirtiendo raíces enésimas a potencias de exponente racional y viceversa; describiendo la relación entre potencias y logaritmos; resolviendo problemas rutinarios y no rutinarios que involucren potencias, logaritmos y raíces enésimas.',
      },
    ],
  },
  {
    codigo: 'MA2M U2',
    nombre: 'Unidad 2: Álgebra y funciones',
    area: 'MA',
    nivel: '2M',
    oas: [
      {
        codigo: 'MA2M OA 03',
        descripcion:
          'Mostrar que comprenden la función cuadrática f(x) = ax² + bx + c (a ≠ 0): reconociendo la función cuadrática f(x) = ax² en situaciones de la vida diaria y otras asignaturas; representándola en tablas y gráficos de manera manual y/o con software educativo; determinando puntos especiales de su gráfica; seleccionándola como modelo de situaciones de cambio cuadrático de otras asignaturas, en particular de la oferta y demanda.',
      },
      {
        codigo: 'MA2M OA 04',
        descripcion:
          'Resolver, de manera concreta, pictórica y simbólica, o usando herramientas tecnológicas, ecuaciones cuadráticas de la forma: ax² = b; (ax + b)² = c; ax² + bx = 0; ax² + bx = c (a, b, c son números racionales, a ≠ 0).',
      },
      {
        codigo: 'MA2M OA 05',
        descripcion:
          'Mostrar que comprenden la inversa de una función: utilizando la metáfora de una máquina; representándola por medio de tablas y gráficos, de manera manual y/o con software educativo; utilizando la reflexión de la función representada en el gráfico en un plano cartesiano; calculando las inversas en casos de funciones lineales y cuadráticas.',
      },
      {
        codigo: 'MA2M OA 06',
        descripcion:
          'Explicar el cambio porcentual constante en intervalos de tiempo: por medio de situaciones de la vida real y de otras asignaturas; identificándolo con el interés compuesto; representándolo de manera concreta, pictórica y simbólica, de manera manual y/o con software educativo; expresándolo en forma recursiva f(t + 1) - f(t) = a · f(t); resolviendo problemas de la vida diaria y de otras asignaturas.',
      },
    ],
  },
  {
    codigo: 'MA2M U3',
    nombre: 'Unidad 3: Geometría',
    area: 'MA',
    nivel: '2M',
    oas: [
      {
        codigo: 'MA2M OA 07',
        descripcion:
          'Desarrollar las fórmulas del área de la superficie y del volumen de la esfera: conjeturando la fórmula; representando de manera concreta y simbólica, de manera manual y/o con software educativo; resolviendo problemas de la vida diaria y de geometría.',
      },
      {
        codigo: 'MA2M OA 08',
        descripcion:
          'Mostrar que comprenden las razones trigonométricas de seno, coseno y tangente en triángulos rectángulos: relacionándolas con las propiedades de la semejanza y los ángulos; explicándolas de manera pictórica y simbólica, de manera manual y/o con software educativo; aplicándolas para determinar ángulos o medidas de lados; resolviendo problemas geométricos y de otras asignaturas.',
      },
      {
        codigo: 'MA2M OA 09',
        descripcion:
          'Aplicar las razones trigonométricas en diversos contextos, en la composición y descomposición de vectores y determinar las proyecciones de vectores.',
      },
    ],
  },
  {
    codigo: 'MA2M U4',
    nombre: 'Unidad 4: Probabilidad y estadística',
    area: 'MA',
    nivel: '2M',
    oas: [
      {
        codigo: 'MA2M OA 10',
        descripcion:
          'Mostrar que comprenden las variables aleatorias finitas: definiendo la variable; determinando los posibles valores de la incógnita; calculando su probabilidad; graficando sus distribuciones.',
      },
      {
        codigo: 'MA2M OA 11',
        descripcion: 'Utilizar permutaciones y la combinatoria sencilla para calcular probabilidades de eventos y resolver problemas.',
      },
      {
        codigo: 'MA2M OA 12',
        descripcion:
          'Mostrar que comprenden el rol de la probabilidad en la sociedad: revisando informaciones de los medios de comunicación; identificando suposiciones basadas en probabilidades; explicando cómo una probabilidad puede sustentar suposiciones opuestas; explicando decisiones basadas en situaciones subjetivas o en probabilidades.',
      },
    ],
  },

  // ────────────────────────── Ciencias Naturales ──────────────────────────
  {
    codigo: 'CN01 U1',
    nombre: 'Unidad 1: Hábitos saludables y uso de los sentidos',
    area: 'CN',
    nivel: '01',
    oas: [
      {
        codigo: 'CN01 OA 01',
        descripcion:
          'Reconocer y observar, por medio de la exploración, que los seres vivos crecen, responden a estímulos del medio, se reproducen y necesitan agua, alimento y aire para vivir, comparándolos con las cosas no vivas.',
      },
      {
        codigo: 'CN01 OA 06',
        descripcion:
          'Identificar y describir la ubicación y la función de los sentidos proponiendo medidas para protegerlos y para prevenir situaciones de riesgo.',
      },
      {
        codigo: 'CN01 OA 07',
        descripcion:
          'Describir, dar ejemplos y practicar hábitos de vida saludable para mantener el cuerpo sano y prevenir enfermedades (actividad física, aseo del cuerpo, lavado de alimentos y alimentación saludable, entre otros).',
      },
    ],
  },
  {
    codigo: 'CN01 U2',
    nombre: 'Unidad 2',
    area: 'CN',
    nivel: '01',
    oas: [
      {
        codigo: 'CN01 OA 02',
        descripcion:
          'Observar y comparar animales de acuerdo a características como tamaño, cubierta corporal, estructuras de desplazamiento y hábitat, entre otras.',
      },
      {
        codigo: 'CN01 OA 03',
        descripcion:
          'Observar e identificar, por medio de la exploración, las estructuras principales de las plantas: hojas, flores, tallos y raíces.',
      },
      {
        codigo: 'CN01 OA 04',
        descripcion:
          'Observar y clasificar semillas, frutos, flores y tallos a partir de criterios como tamaño, forma, textura y color, entre otros.',
      },
      {
        codigo: 'CN01 OA 05',
        descripcion:
          'Reconocer y comparar diversas plantas y animales de nuestro país, considerando las características observables, y proponiendo medidas para su cuidado.',
      },
    ],
  },
  {
    codigo: 'CN01 U3',
    nombre: 'Unidad 3',
    area: 'CN',
    nivel: '01',
    oas: [
      {
        codigo: 'CN01 OA 08',
        descripcion:
          'Explorar y describir los diferentes tipos de materiales en diversos objetos, clasificándolos según sus propiedades (goma-flexible, plástico-impermeable) e identificando su uso en la vida cotidiana.',
      },
      {
        codigo: 'CN01 OA 09',
        descripcion: 'Observar y describir los cambios que se producen en los materiales al aplicarles fuerza, luz, calor y agua.',
      },
      {
        codigo: 'CN01 OA 10',
        descripcion:
          'Diseñar instrumentos tecnológicos simples considerando diversos materiales y sus propiedades para resolver problemas cotidianos.',
      },
    ],
  },
  {
    codigo: 'CN01 U4',
    nombre: 'Unidad 4',
    area: 'CN',
    nivel: '01',
    oas: [
      {
        codigo: 'CN01 OA 11',
        descripcion:
          'Describir y registrar el ciclo diario y las diferencias entre el día y la noche, a partir de la observación del Sol, la Luna, las estrellas y la luminosidad del cielo, entre otras, y sus efectos en los seres vivos y el ambiente.',
      },
      {
        codigo: 'CN01 OA 12',
        descripcion: 'Describir y comunicar los cambios del ciclo de las estaciones y sus efectos en los seres vivos y el ambiente.',
      },
    ],
  },
  {
    // Unit purpose in the Programa: main internal organs, physical activity, and humans as vertebrates.
    codigo: 'CN02 U1',
    nombre: 'Unidad 1',
    area: 'CN',
    nivel: '02',
    oas: [
      {
        codigo: 'CN02 OA 01',
        descripcion:
          'Observar, describir y clasificar los vertebrados en mamíferos, aves, reptiles, anfibios y peces, a partir de características como cubierta corporal, presencia de mamas y estructuras para la respiración, entre otras.',
      },
      {
        codigo: 'CN02 OA 07',
        descripcion:
          'Identificar la ubicación y explicar la función de algunas partes del cuerpo que son fundamentales para vivir: corazón, pulmones, estómago, esqueleto y músculos.',
      },
      {
        codigo: 'CN02 OA 08',
        descripcion:
          'Explicar la importancia de la actividad física para el desarrollo de los músculos y el fortalecimiento del corazón, proponiendo formas de ejercitarla e incorporarla en sus hábitos diarios.',
      },
    ],
  },
  {
    codigo: 'CN04 U1',
    nombre: 'Unidad 1',
    area: 'CN',
    nivel: '04',
    oas: [
      {
        codigo: 'CN04 OA 09',
        descripcion:
          'Demostrar, por medio de la investigación experimental, que la materia tiene masa y ocupa espacio, usando materiales del entorno.',
      },
      {
        codigo: 'CN04 OA 10',
        descripcion:
          'Comparar los tres estados de la materia (sólido, líquido y gaseoso) en relación con criterios como la capacidad de fluir, cambiar de forma y volumen, entre otros.',
      },
      {
        codigo: 'CN04 OA 11',
        descripcion:
          'Medir la masa, el volumen y la temperatura de la materia (en estados sólido, líquido y gaseoso), utilizando instrumentos y unidades de medida apropiados.',
      },
      {
        codigo: 'CN04 OA 12',
        descripcion:
          'Demostrar, por medio de la investigación experimental, los efectos de la aplicación de fuerzas sobre objetos, considerando cambios en la forma, la rapidez y la dirección del movimiento, entre otros.',
      },
      {
        codigo: 'CN04 OA 13',
        descripcion:
          'Identificar, por medio de la investigación experimental, diferentes tipos de fuerzas y sus efectos en situaciones concretas: fuerza de roce (arrastrando objetos); peso (fuerza de gravedad); fuerza magnética (en imanes).',
      },
      {
        codigo: 'CN04 OA 14',
        descripcion: 'Diseñar y construir objetos tecnológicos que usen la fuerza para resolver problemas cotidianos.',
      },
    ],
  },
  {
    codigo: 'CN04 U2',
    nombre: 'Unidad 2',
    area: 'CN',
    nivel: '04',
    oas: [
      {
        codigo: 'CN04 OA 15',
        descripcion:
          'Describir, por medio de modelos, que la Tierra tiene una estructura de capas (corteza, manto y núcleo) con características distintivas en cuanto a su composición, rigidez y temperatura.',
      },
      {
        codigo: 'CN04 OA 16',
        descripcion:
          'Explicar los cambios de la superficie de la Tierra a partir de la interacción de sus capas y los movimientos de las placas tectónicas (sismos, tsunamis y erupciones volcánicas).',
      },
      {
        codigo: 'CN04 OA 17',
        descripcion:
          'Proponer medidas de prevención y seguridad ante riesgos naturales en la escuela, la calle y el hogar, para desarrollar una cultura preventiva.',
      },
    ],
  },
  {
    codigo: 'CN04 U3',
    nombre: 'Unidad 3',
    area: 'CN',
    nivel: '04',
    oas: [
      {
        codigo: 'CN04 OA 05',
        descripcion:
          'Identificar y describir, usando modelos, estructuras del sistema esquelético y algunas de sus funciones, como protección (costillas y cráneo), soporte (vértebras y columna vertebral) y movimiento (pelvis y fémur).',
      },
      {
        codigo: 'CN04 OA 06',
        descripcion:
          'Explicar, con apoyo de modelos, el movimiento del cuerpo, considerando la acción coordinada de músculos, huesos, tendones y articulación (ejemplo: brazo y pierna), y describir los beneficios de la actividad física para el sistema musculo-esquelético.',
      },
      {
        codigo: 'CN04 OA 07',
        descripcion:
          'Identificar estructuras del sistema nervioso y describir algunas de sus funciones, como conducción de información (médula espinal y nervios) y elaboración y control (cerebro).',
      },
      {
        codigo: 'CN04 OA 08',
        descripcion:
          'Investigar en diversas fuentes y comunicar los efectos que produce el consumo excesivo de alcohol en la salud humana (como descoordinación, confusión y lentitud, entre otras).',
      },
    ],
  },
  {
    codigo: 'CN04 U4',
    nombre: 'Unidad 4',
    area: 'CN',
    nivel: '04',
    oas: [
      {
        codigo: 'CN04 OA 01',
        descripcion:
          'Reconocer, por medio de la exploración, que un ecosistema está compuesto por elementos vivos (animales, plantas, etc.) y no vivos (piedras, aguas, tierra, etc.) que interactúan entre sí.',
      },
      {
        codigo: 'CN04 OA 02',
        descripcion:
          'Observar y comparar adaptaciones de plantas y animales para sobrevivir en los ecosistemas en relación con su estructura y conducta; por ejemplo: cubierta corporal, camuflaje, tipo de hojas, hibernación, entre otras.',
      },
      {
        codigo: 'CN04 OA 03',
        descripcion:
          'Dar ejemplos de cadenas alimentarias, identificando la función de los organismos productores, consumidores y descomponedores, en diferentes ecosistemas de Chile.',
      },
      {
        codigo: 'CN04 OA 04',
        descripcion:
          'Analizar los efectos de la actividad humana en ecosistemas de Chile, proponiendo medidas para protegerlos (parques nacionales y vedas, entre otras).',
      },
    ],
  },
  {
    codigo: 'CN06 U1',
    nombre: 'Unidad 1',
    area: 'CN',
    nivel: '06',
    oas: [
      {
        codigo: 'CN06 OA 01',
        descripcion:
          'Explicar, a partir de una investigación experimental, los requerimientos de agua, dióxido de carbono y energía lumínica para la producción de azúcar y liberación de oxígeno en la fotosíntesis, comunicando sus resultados y los aportes de científicos en este campo a través del tiempo.',
      },
      {
        codigo: 'CN06 OA 02',
        descripcion:
          'Representar, por medio de modelos, la transferencia de energía y materia desde los organismos fotosintéticos a otros seres vivos por medio de cadenas y redes alimentarias en diferentes ecosistemas.',
      },
      { codigo: 'CN06 OA 03', descripcion: 'Analizar los efectos de la actividad humana sobre las redes alimentarias.' },
      {
        codigo: 'CN06 OA 16',
        descripcion:
          'Describir las características de las capas de la Tierra (atmósfera, litósfera e hidrósfera) que posibilitan el desarrollo de la vida y proveen recursos para el ser humano, y proponer medidas de protección de dichas capas.',
      },
      {
        codigo: 'CN06 OA 17',
        descripcion:
          'Investigar experimentalmente la formación del suelo, sus propiedades (como color, textura y capacidad de retención de agua) y la importancia de protegerlo de la contaminación, comunicando sus resultados.',
      },
      {
        codigo: 'CN06 OA 18',
        descripcion:
          'Explicar las consecuencias de la erosión sobre la superficie de la Tierra, identificando los agentes que la provocan, como el viento, el agua y las actividades humanas.',
      },
    ],
  },
  {
    codigo: 'CN06 U2',
    nombre: 'Unidad 2',
    area: 'CN',
    nivel: '06',
    oas: [
      {
        codigo: 'CN06 OA 04',
        descripcion:
          'Identificar y describir las funciones de las principales estructuras del sistema reproductor humano femenino y masculino.',
      },
      {
        codigo: 'CN06 OA 05',
        descripcion:
          'Describir y comparar los cambios que se producen en la pubertad en mujeres y hombres, reconociéndola, como una etapa del desarrollo humano.',
      },
      {
        codigo: 'CN06 OA 06',
        descripcion:
          'Reconocer los beneficios de realizar actividad física en forma regular y de cuidar la higiene corporal en el período de la pubertad.',
      },
      {
        codigo: 'CN06 OA 07',
        descripcion: 'Investigar y comunicar los efectos nocivos de algunas drogas para la salud, proponiendo conductas de protección.',
      },
    ],
  },
  {
    codigo: 'CN07 U1',
    nombre: 'Unidad 1',
    area: 'CN',
    nivel: '07',
    oas: [
      {
        codigo: 'CN07 OA 13',
        descripcion:
          'Investigar experimentalmente y explicar el comportamiento de gases ideales en situaciones cotidianas, considerando: factores como presión, volumen y temperatura; las leyes que los modelan; la teoría cinético-molecular.',
      },
      {
        codigo: 'CN07 OA 14',
        descripcion:
          'Investigar experimentalmente y explicar la clasificación de la materia en sustancias puras y mezclas (homogéneas y heterogéneas), los procedimientos de separación de mezclas (decantación, filtración, tamizado y destilación), considerando su aplicación industrial en la metalurgia, la minería y el tratamiento de aguas servidas, entre otros.',
      },
      {
        codigo: 'CN07 OA 15',
        descripcion:
          'Investigar experimentalmente los cambios de la materia y argumentar con evidencia empírica que estos pueden ser físicos o químicos.',
      },
    ],
  },
  {
    codigo: 'CN07 U2',
    nombre: 'Unidad 2',
    area: 'CN',
    nivel: '07',
    oas: [
      {
        codigo: 'CN07 OA 07',
        descripcion:
          'Planificar y conducir una investigación experimental para proveer evidencias que expliquen los efectos de las fuerzas gravitacional, de roce y elástica, entre otras, en situaciones cotidianas.',
      },
      {
        codigo: 'CN07 OA 08',
        descripcion:
          'Explorar y describir cualitativamente la presión, considerando sus efectos en: sólidos, como en herramientas mecánicas; líquidos, como en máquinas hidráulicas; gases, como en la atmósfera.',
      },
      {
        codigo: 'CN07 OA 09',
        descripcion:
          'Explicar, con el modelo de la tectónica de placas, los patrones de distribución de la actividad geológica (volcanes y sismos), los tipos de interacción entre las placas (convergente, divergente y transformante) y su importancia en la teoría de la deriva continental.',
      },
      {
        codigo: 'CN07 OA 10',
        descripcion:
          'Explicar, sobre la base de evidencias y por medio de modelos, la actividad volcánica y sus consecuencias en la naturaleza y la sociedad.',
      },
      {
        codigo: 'CN07 OA 11',
        descripcion:
          'Crear modelos que expliquen el ciclo de las rocas, la formación y modificación de las rocas ígneas, metamórficas y sedimentarias, en función de la temperatura, la presión y la erosión.',
      },
      {
        codigo: 'CN07 OA 12',
        descripcion:
          'Demostrar, por medio de modelos, que comprenden que el clima en la Tierra, tanto local como global, es dinámico y se produce por la interacción de múltiples variables, como la presión, la temperatura y la humedad atmosférica, la circulación de la atmósfera y del agua, la posición geográfica, la rotación y la traslación de la Tierra.',
      },
    ],
  },
  {
    codigo: 'CN07 U3',
    nombre: 'Unidad 3',
    area: 'CN',
    nivel: '07',
    oas: [
      {
        codigo: 'CN07 OA 04',
        descripcion:
          'Desarrollar modelos que expliquen las barreras defensivas (primaria, secundaria y terciaria) del cuerpo humano, considerando: agentes patógenos como Escherichia coli y el virus de la gripe; uso de vacunas contra infecciones comunes (influenza y meningitis, entre otras); alteraciones en sus respuestas como en las alergias, las enfermedades autoinmunes y los rechazos a trasplantes de órganos.',
      },
      {
        codigo: 'CN07 OA 05',
        descripcion:
          'Comparar, usando modelos, microorganismos como virus, bacterias y hongos, en relación con: características estructurales (tamaño, forma y estructuras); características comunes de los seres vivos (alimentación, reproducción, respiración, etc.); efectos sobre la salud humana (positivos y negativos).',
      },
      {
        codigo: 'CN07 OA 06',
        descripcion:
          'Investigar y explicar el rol de microorganismos (bacterias y hongos) en la biotecnología, como en la: descontaminación ambiental; producción de alimentos y fármacos; obtención del cobre; generación de metano.',
      },
    ],
  },
  {
    codigo: 'CN07 U4',
    nombre: 'Unidad 4',
    area: 'CN',
    nivel: '07',
    oas: [
      {
        codigo: 'CN07 OA 01',
        descripcion:
          'Explicar los aspectos biológicos, afectivos y sociales que se integran en la sexualidad, considerando: los cambios físicos que ocurren durante la pubertad; la relación afectiva entre dos personas en la intimidad y el respeto mutuo; la responsabilidad individual.',
      },
      {
        codigo: 'CN07 OA 02',
        descripcion:
          'Explicar la formación de un nuevo individuo, considerando: el ciclo menstrual (días fértiles, menstruación y ovulación); la participación de espermatozoides y ovocitos; métodos de control de la natalidad; la paternidad y la maternidad responsables.',
      },
      {
        codigo: 'CN07 OA 03',
        descripcion:
          'Describir, por medio de la investigación, las características de infecciones de transmisión sexual (ITS), como sida y herpes, entre otros, considerando sus: mecanismos de transmisión; medidas de prevención; síntomas generales; consecuencias y posibles secuelas.',
      },
    ],
  },
  // 1° medio: the Programa organises Ciencias Naturales by axis (Biología, Física, Química), each with its own units.
  // Only the Biología units are seeded; unit codes carry the axis to keep them unique.
  {
    codigo: 'CN1M BIO-U1',
    nombre: 'Biología – Unidad 1: Evolución y biodiversidad',
    area: 'CN',
    nivel: '1M',
    oas: [
      {
        codigo: 'CN1M OA 01',
        descripcion:
          'Explicar, basándose en evidencias, que los fósiles: se forman a partir de restos de animales y plantas; se forman en rocas sedimentarias; se ubican de acuerdo a su antigüedad en los estratos de la Tierra.',
      },
      {
        codigo: 'CN1M OA 02',
        descripcion:
          'Analizar e interpretar datos para proveer de evidencias que apoyen que la diversidad de organismos es el resultado de la evolución, considerando: evidencias de la evolución (como el registro fósil, las estructuras anatómicas homólogas, la embriología y las secuencias de ADN); los postulados de la teoría de la selección natural; los aportes de científicos como Darwin y Wallace a las teorías evolutivas.',
      },
      {
        codigo: 'CN1M OA 03',
        descripcion:
          'Explicar, basándose en evidencias, que la clasificación de la diversidad de organismos se construye a través del tiempo sobre la base de criterios taxonómicos que permiten organizarlos en grupos y subgrupos, identificando sus relaciones de parentesco con ancestros comunes.',
      },
    ],
  },
  {
    codigo: 'CN1M BIO-U2',
    nombre: 'Biología – Unidad 2: Organismos en ecosistemas',
    area: 'CN',
    nivel: '1M',
    oas: [
      {
        codigo: 'CN1M OA 04',
        descripcion:
          'Investigar y explicar cómo se organizan e interactúan los seres vivos en diversos ecosistemas, a partir de ejemplos de Chile, considerando: los niveles de organización de los seres vivos (como organismo, población, comunidad, ecosistema); las interacciones biológicas (como depredación, competencia, comensalismo, mutualismo, parasitismo).',
      },
      {
        codigo: 'CN1M OA 05',
        descripcion:
          'Analizar e interpretar los factores que afectan el tamaño de las poblaciones (propagación de enfermedades, disponibilidad de energía y de recursos alimentarios, sequías, entre otros) y predecir posibles consecuencias sobre el ecosistema.',
      },
    ],
  },
  {
    codigo: 'CN1M BIO-U3',
    nombre: 'Biología – Unidad 3: Materia y energía en ecosistemas',
    area: 'CN',
    nivel: '1M',
    oas: [
      {
        codigo: 'CN1M OA 06',
        descripcion:
          'Desarrollar modelos que expliquen: el ciclo del carbono, el nitrógeno, el agua y el fósforo, y su importancia biológica; los flujos de energía en un ecosistema (redes y pirámides tróficas); la trayectoria de contaminantes y su bioacumulación.',
      },
      {
        codigo: 'CN1M OA 07',
        descripcion:
          'Explicar, por medio de una investigación, el rol de la fotosíntesis y la respiración celular en el ecosistema considerando: el flujo de la energía; el ciclo de la materia.',
      },
    ],
  },
  {
    codigo: 'CN1M BIO-U4',
    nombre: 'Biología – Unidad 4: Impactos en ecosistemas y sustentabilidad',
    area: 'CN',
    nivel: '1M',
    oas: [
      {
        codigo: 'CN1M OA 08',
        descripcion:
          'Explicar y evaluar los efectos de acciones humanas (conservación ambiental, cultivos, forestación y deforestación, entre otras) y de fenómenos naturales (sequías, erupciones volcánicas, entre otras) en relación con: el equilibrio de los ecosistemas; la disponibilidad de recursos naturales renovables y no renovables; las posibles medidas para un desarrollo sustentable.',
      },
    ],
  },
];

export const metodologias: readonly string[] = [
  'Aprendizaje Basado en Proyectos',
  'Aprendizaje Basado en Problemas',
  'Aprendizaje Basado en la Indagación',
  'Aula Invertida',
  'Gamificación',
  'Aprendizaje Cooperativo',
  'Pensamiento de Diseño',
  'Estudio de Casos',
  'Aprendizaje-Servicio',
  'Rutinas de Pensamiento',
];

export const tiposMaterial: readonly string[] = [
  'Guía',
  'Presentación',
  'Evaluación',
  'Planificación',
  'Rúbrica',
  'Lista de cotejo',
  'Escala de apreciación',
  'Actividad',
  'Material de apoyo',
  'Pauta de corrección',
];

/** Fictional schools of a regional network (Ñuble); generic place and nature names only. */
export const colegios: readonly string[] = [
  'Escuela Básica Los Aromos',
  'Escuela Rural El Roble',
  'Escuela Básica Las Araucarias',
  'Escuela Básica Río Ñuble',
  'Colegio Los Copihues',
  'Liceo Bicentenario Valle del Itata',
  'Liceo Polivalente Cordillera',
  'Escuela Los Boldos',
];

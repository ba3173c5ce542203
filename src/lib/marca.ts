/** The product's name and the footer sentence, kept in one place (decision 0002). */
export const PRODUCTO = 'Entre Docentes';

export const PIE =
  'Plataforma desarrollada por la Facultad de Educación de la universidad y financiada por el Gobierno Regional, al servicio de los equipos docentes como herramienta de apoyo a la innovación metodológica y al trabajo en red.';

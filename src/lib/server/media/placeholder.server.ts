/** A light placeholder image where no thumbnail could be made (SVG, a few hundred bytes). */
const colores = { PDF: '#b3261e', Video: '#1d5fa8', Imagen: '#4a5568', Word: '#2b579a', Excel: '#217346', PowerPoint: '#c43e1c' } as const;
export type Etiqueta = keyof typeof colores;

function placeholderSvg(etiqueta: Etiqueta): string {
  const color = colores[etiqueta];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 270" role="img" aria-label="${etiqueta}"><rect width="480" height="270" fill="#eef2f6"/><rect x="190" y="70" width="100" height="130" rx="10" fill="#fff" stroke="${color}" stroke-width="6"/><text x="240" y="150" font-family="sans-serif" font-size="26" font-weight="700" text-anchor="middle" fill="${color}">${etiqueta}</text></svg>`;
}

export function placeholderResponse(etiqueta: Etiqueta): Response {
  return new Response(placeholderSvg(etiqueta), {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' },
  });
}

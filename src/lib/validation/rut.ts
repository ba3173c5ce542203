/** Chilean RUT: digits plus a check digit computed modulo 11 ('K' for 10). */
export function normalizarRut(input: string): string | null {
  const clean = input.replace(/[.\s-]/g, '').toUpperCase();
  const m = /^(\d{1,9})([\dK])$/.exec(clean);
  if (!m) return null;
  const [, cuerpo = '', dv] = m;
  let sum = 0;
  let factor = 2;
  for (let i = cuerpo.length - 1; i >= 0; i--) {
    sum += Number(cuerpo[i]) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const rest = 11 - (sum % 11);
  const expected = rest === 11 ? '0' : rest === 10 ? 'K' : String(rest);
  return dv === expected ? `${Number(cuerpo)}-${dv}` : null;
}

/** A small RFC 4180 reader for school rosters: quoted fields, commas or semicolons (Excel in es-CL). */
export interface CsvRow {
  /** 1-based line number in the file where the row starts. */
  line: number;
  values: string[];
}

export function parseCsv(text: string): CsvRow[] {
  const source = text.replace(/^\uFEFF/, '');
  const firstLine = source.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: CsvRow[] = [];
  let values: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      values.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && source[i + 1] === '\n') i++;
      values.push(field);
      if (values.some((v) => v.trim() !== '')) rows.push({ line: rowStart, values });
      values = [];
      field = '';
      line++;
      rowStart = line;
    } else field += ch;
  }
  values.push(field);
  if (values.some((v) => v.trim() !== '')) rows.push({ line: rowStart, values });
  return rows;
}

/**
 * An uploaded text file's text (the roster import, the curriculum import): UTF-8, with or without
 * a byte-order mark, or, when the bytes are not valid UTF-8, Windows-1252 (Latin-1 with the
 * quotes and dashes Excel in es-CL saves). Null for a binary file (a NUL byte). Bytes neither
 * encoding gives a letter for come out as control characters, which textoPermitido refuses.
 */
export function decodificarTexto(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

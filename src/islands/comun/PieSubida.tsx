/**
 * The foot of the upload and edit forms of capsules, materials and manuals: Guardar (live only
 * once the island is, and once per submit), Cancelar back where the person came from, and the
 * upload's state read out as it changes: a bar with the real percentage while a file goes up
 * ('Subiendo manual… 42%'), or the edit's text ('Subiendo cambios').
 */
export interface PieSubidaProps {
  hidratado: boolean;
  /** The form is sending, or done and leaving: no second submit. */
  ocupado: boolean;
  enviando: boolean;
  cancelar: string;
  /** 0 to 100 while sending; null otherwise. */
  progreso: number | null;
  /** What is happening while sending, with the percentage when a file goes up. */
  texto: (progreso: number) => string;
  /** Whether a file goes up (a bar shows the percentage). */
  conArchivo: boolean;
}

export function PieSubida({ hidratado, ocupado, enviando, cancelar, progreso, texto, conArchivo }: PieSubidaProps) {
  return (
    <>
      <div className="acciones">
        <button type="submit" disabled={!hidratado || ocupado} aria-busy={enviando || undefined}>
          Guardar
        </button>
        <a className="boton secundario" href={cancelar}>
          Cancelar
        </a>
      </div>
      <div className="progreso-subida" role="status">
        {progreso !== null && (
          <>
            {conArchivo && <progress value={progreso} max={100} aria-label="Progreso de la subida" />}
            <span>{texto(progreso)}</span>
          </>
        )}
      </div>
    </>
  );
}

/**
 * The per-address limit of visitors with no session on the public pages and the public files they
 * link (issue 34 point 5, decision 0068): PUBLICO_POR_MINUTO requests a minute, then the seconds
 * left in the minute (http/publicas.server.ts answers them with a 429 and Retry-After).
 *
 * The counts live in the process's memory, not in `limites_intentos` as the sign-in limits do
 * (rate-limit.server.ts): a crawler at 50 requests a second would otherwise write 50 rows a
 * second, and a refused request must cost next to nothing. With several web servers each counts
 * its own visitors, so one address may reach the limit once on each.
 */

export interface LimitePublico {
  /** Counts one anonymous request from `direccion`: the seconds it must wait when it is over the limit, else 0. */
  contar(direccion: string): number;
}

export interface OpcionesLimite {
  /** Requests an address may make in one window; 0 turns the limit off (a CDN in front limits instead). */
  max: number;
  ventanaSegundos: number;
  now: () => Date;
  /** Addresses remembered at once: past that, the oldest windows are forgotten first. */
  maxDirecciones?: number;
}

/** Enough for a crawler's every address in a minute; each costs well under 100 bytes. */
const MAX_DIRECCIONES = 20_000;

/** Fixed windows per address, in memory. */
export function createLimitePublico(opciones: OpcionesLimite): LimitePublico {
  const ventanaMs = opciones.ventanaSegundos * 1000;
  const maxDirecciones = opciones.maxDirecciones ?? MAX_DIRECCIONES;
  // In the order the windows started (a new window goes to the end), so the oldest come first.
  const ventanas = new Map<string, { inicio: number; n: number }>();

  const podar = (ahora: number) => {
    for (const [direccion, v] of ventanas) {
      if (v.inicio + ventanaMs > ahora && ventanas.size < maxDirecciones) break;
      ventanas.delete(direccion);
    }
  };

  return {
    contar(direccion) {
      if (opciones.max <= 0) return 0;
      const ahora = opciones.now().getTime();
      let v = ventanas.get(direccion);
      if (!v || v.inicio + ventanaMs <= ahora) {
        ventanas.delete(direccion);
        if (ventanas.size >= maxDirecciones) podar(ahora);
        v = { inicio: ahora, n: 0 };
        ventanas.set(direccion, v);
      }
      v.n += 1;
      return v.n > opciones.max ? Math.max(1, Math.ceil((v.inicio + ventanaMs - ahora) / 1000)) : 0;
    },
  };
}

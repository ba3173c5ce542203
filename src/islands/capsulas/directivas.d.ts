// The client directives astro.config.mjs adds, typed for .astro templates.
declare namespace Astro {
  interface ClientDirectives {
    /**
     * Hydrate once the capsule player shows its first frame; with "visible", once it is also in
     * view (directiva-reproduccion.ts).
     */
    'client:reproduccion'?: boolean | 'visible';
    /** Hydrate when the person reaches for the island; a press that woke it is replayed (moderacion/directiva-intencion.ts). */
    'client:intencion'?: boolean;
  }
}

/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The signed-in user of a protected page (set by src/middleware.ts). */
    usuario?: import('./lib/server/services/usuario-actual.server.ts').UsuarioPagina;
    /** A render the server may keep for this person and address (src/lib/server/http/paginas.server.ts). */
    pagina?: import('./lib/server/http/paginas.server.ts').PaginaEnCurso;
  }
}

-- Spanish full-text search that ignores accents ('matematicas' finds 'Matemáticas').
-- unaccent() is only STABLE; an IMMUTABLE wrapper with the dictionary named lets indexes use it.
-- Names are schema-qualified: PostgreSQL 17 (PGlite) runs index expressions with a safe search_path.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.busqueda_es(text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT pg_catalog.to_tsvector('pg_catalog.spanish'::regconfig, public.f_unaccent($1)) $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS capsulas_busqueda_idx ON capsulas USING gin (public.busqueda_es(titulo || ' ' || descripcion));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS materiales_busqueda_idx ON materiales USING gin (public.busqueda_es(titulo || ' ' || descripcion));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS manuales_busqueda_idx ON manuales USING gin (public.busqueda_es(titulo || ' ' || descripcion));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS foro_conversaciones_busqueda_idx ON foro_conversaciones USING gin (public.busqueda_es(titulo || ' ' || contenido));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS foro_categorias_busqueda_idx ON foro_categorias USING gin (public.busqueda_es(nombre || ' ' || descripcion));

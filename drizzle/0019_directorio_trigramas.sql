-- The community directory's name search (issue 36): each word must start a word of the full name,
-- accents and case aside, written as `' ' || lower(f_unaccent(names)) like '% word%'`. Without an
-- index that ran f_unaccent over every account on every search. A trigram index on that very
-- expression answers the `like` on both databases (PGlite ships pg_trgm; client.server.ts loads it).
-- Words shorter than three letters give no trigram and still read every row. fastupdate is off:
-- accounts arrive one by one, and PGlite runs no autovacuum to empty a GIN index's pending list,
-- which every search would otherwise read in full.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS usuarios_nombre_trgm_idx ON usuarios USING gin (
  (' ' || lower(public.f_unaccent(primer_nombre || ' ' || segundo_nombre || ' ' || apellido_paterno || ' ' || apellido_materno))) public.gin_trgm_ops
) WITH (fastupdate = off);

-- The community directory's name search (issue 36): the full name as it is searched (accents and
-- case aside, each word after a space), stored, so a page read in the directory's order checks
-- each account it passes with a `like` on a column instead of running f_unaccent over its four
-- names (5.9 ms against 0.9 ms for a page of 'sepulveda' at 100x on PostgreSQL). The trigram index
-- of drizzle/0019 moves onto the column; it answers the same `like` for the totals. Not in the
-- Drizzle schema, like materiales.busqueda: whole-row reads do not carry it, and backups skip
-- generated columns. Analysed at once: without statistics on the new column the planner sorted
-- every match instead of reading the directory's order index.
ALTER TABLE "usuarios" ADD COLUMN "nombre_busqueda" text GENERATED ALWAYS AS (
  ' ' || lower(public.f_unaccent(primer_nombre || ' ' || segundo_nombre || ' ' || apellido_paterno || ' ' || apellido_materno))
) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS usuarios_nombre_trgm_idx;
--> statement-breakpoint
CREATE INDEX usuarios_nombre_trgm_idx ON usuarios USING gin (nombre_busqueda public.gin_trgm_ops) WITH (fastupdate = off);
--> statement-breakpoint
ANALYZE usuarios;

-- The materials' search vector stored in the row (issue 36, decision 0082): a title search's page is
-- read in date order, and each row passed was checked by computing busqueda_es of its title and
-- description again (30 µs a row; 10 ms for a word found once in 30 materials at 100x, per request).
-- The database keeps the column in step with the text; the index moves from the expression to it.
ALTER TABLE "materiales" ADD COLUMN "busqueda" tsvector
  GENERATED ALWAYS AS (public.busqueda_es("titulo" || ' ' || "descripcion")) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "materiales_busqueda_idx";
--> statement-breakpoint
CREATE INDEX "materiales_busqueda_idx" ON "materiales" USING gin ("busqueda");

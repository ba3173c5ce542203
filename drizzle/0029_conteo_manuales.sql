-- The manuals list's total kept per version like the materials' (issue 36, decision 0081 amended):
-- the hidden manuals, few, found without reading the others, and the triggers that move the
-- manuals' version in versiones_conteo (drizzle/0021's function) on any write a total can see.
CREATE INDEX "manuales_ocultos_idx" ON "manuales" USING btree ("id") WHERE "manuales"."oculto";
--> statement-breakpoint
CREATE TRIGGER manuales_conteo_filas AFTER INSERT OR DELETE OR TRUNCATE ON public.manuales
  FOR EACH STATEMENT EXECUTE FUNCTION public.mover_version_conteo('manuales');
--> statement-breakpoint
-- Visits and comments, most of the table's writes, change no total.
CREATE TRIGGER manuales_conteo_cambio AFTER UPDATE ON public.manuales FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'n_visitas' - 'n_comentarios') IS DISTINCT FROM (to_jsonb(NEW) - 'n_visitas' - 'n_comentarios'))
  EXECUTE FUNCTION public.mover_version_conteo('manuales');

CREATE TABLE "versiones_conteo" (
	"tabla" text PRIMARY KEY NOT NULL,
	"version" uuid DEFAULT gen_random_uuid() NOT NULL
);
--> statement-breakpoint
-- Moves the token of the list table the trigger names (issue 36, decision 0081): the lists' cached
-- totals of that table are used only while it is the one they were counted under.
CREATE OR REPLACE FUNCTION public.mover_version_conteo() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.versiones_conteo (tabla) VALUES (TG_ARGV[0])
    ON CONFLICT (tabla) DO UPDATE SET version = gen_random_uuid();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER materiales_conteo_filas AFTER INSERT OR DELETE OR TRUNCATE ON public.materiales
  FOR EACH STATEMENT EXECUTE FUNCTION public.mover_version_conteo('materiales');
--> statement-breakpoint
-- An update moves it unless it changed only the counters the lists show and never filter by (a
-- visit, a comment): those are most of the table's writes.
CREATE TRIGGER materiales_conteo_cambio AFTER UPDATE ON public.materiales FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'n_visitas' - 'n_comentarios') IS DISTINCT FROM (to_jsonb(NEW) - 'n_visitas' - 'n_comentarios'))
  EXECUTE FUNCTION public.mover_version_conteo('materiales');
--> statement-breakpoint
-- The OA filter reads the links.
CREATE TRIGGER materiales_oas_conteo AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.materiales_oas
  FOR EACH STATEMENT EXECUTE FUNCTION public.mover_version_conteo('materiales');

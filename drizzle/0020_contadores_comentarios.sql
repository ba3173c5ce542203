-- Each item's comment count as the lists show it (issue 36, decision 0080): neither the placeholders of
-- deleted comments nor hidden ones, the same for everyone. The lists counted every comment of their
-- page's items on each request; now triggers keep a column, on every way a comment's counted state
-- changes (insert, delete, the soft delete `eliminado`, moderation's `oculto`, a cascade from its item).
ALTER TABLE "capsulas" ADD COLUMN "n_comentarios" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_conversaciones" ADD COLUMN "n_comentarios" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "n_comentarios" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "n_comentarios" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sets every counter to the rows' true count, writing only the ones that differ. The migration's
-- backfill, and what a restore and the bench's generator run after loading rows in bulk.
CREATE OR REPLACE FUNCTION public.recontar_comentarios() RETURNS void LANGUAGE sql AS $$
  UPDATE public.capsulas t SET n_comentarios = coalesce(c.n, 0)
    FROM public.capsulas s LEFT JOIN (SELECT id_capsula AS id, count(*)::int AS n FROM public.comentarios
      WHERE id_capsula IS NOT NULL AND NOT eliminado AND NOT oculto GROUP BY id_capsula) c ON c.id = s.id
    WHERE s.id = t.id AND t.n_comentarios IS DISTINCT FROM coalesce(c.n, 0);
  UPDATE public.materiales t SET n_comentarios = coalesce(c.n, 0)
    FROM public.materiales s LEFT JOIN (SELECT id_material AS id, count(*)::int AS n FROM public.comentarios
      WHERE id_material IS NOT NULL AND NOT eliminado AND NOT oculto GROUP BY id_material) c ON c.id = s.id
    WHERE s.id = t.id AND t.n_comentarios IS DISTINCT FROM coalesce(c.n, 0);
  UPDATE public.manuales t SET n_comentarios = coalesce(c.n, 0)
    FROM public.manuales s LEFT JOIN (SELECT id_manual AS id, count(*)::int AS n FROM public.comentarios
      WHERE id_manual IS NOT NULL AND NOT eliminado AND NOT oculto GROUP BY id_manual) c ON c.id = s.id
    WHERE s.id = t.id AND t.n_comentarios IS DISTINCT FROM coalesce(c.n, 0);
  UPDATE public.foro_conversaciones t SET n_comentarios = coalesce(c.n, 0)
    FROM public.foro_conversaciones s LEFT JOIN (SELECT id_conversacion AS id, count(*)::int AS n FROM public.foro_comentarios
      WHERE NOT eliminado AND NOT oculto GROUP BY id_conversacion) c ON c.id = s.id
    WHERE s.id = t.id AND t.n_comentarios IS DISTINCT FROM coalesce(c.n, 0);
$$;
--> statement-breakpoint
-- A comment on content counts for whichever of its item columns is set (as `count(*) where id_x = item` did).
CREATE OR REPLACE FUNCTION public.contar_comentario_recurso(c public.comentarios, d integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF c.eliminado OR c.oculto THEN RETURN; END IF;
  IF c.id_capsula IS NOT NULL THEN UPDATE public.capsulas SET n_comentarios = n_comentarios + d WHERE id = c.id_capsula; END IF;
  IF c.id_material IS NOT NULL THEN UPDATE public.materiales SET n_comentarios = n_comentarios + d WHERE id = c.id_material; END IF;
  IF c.id_manual IS NOT NULL THEN UPDATE public.manuales SET n_comentarios = n_comentarios + d WHERE id = c.id_manual; END IF;
END $$;
--> statement-breakpoint
-- The old row leaves the count and the new one enters it (each only if it is counted).
CREATE OR REPLACE FUNCTION public.comentarios_contar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM public.contar_comentario_recurso(OLD, -1); END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN PERFORM public.contar_comentario_recurso(NEW, 1); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.foro_comentarios_contar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.eliminado AND NOT OLD.oculto THEN
    UPDATE public.foro_conversaciones SET n_comentarios = n_comentarios - 1 WHERE id = OLD.id_conversacion;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NOT NEW.eliminado AND NOT NEW.oculto THEN
    UPDATE public.foro_conversaciones SET n_comentarios = n_comentarios + 1 WHERE id = NEW.id_conversacion;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER comentarios_contar AFTER INSERT OR DELETE ON public.comentarios
  FOR EACH ROW EXECUTE FUNCTION public.comentarios_contar();
--> statement-breakpoint
-- An edit of the text changes no count, and writes no item row.
CREATE TRIGGER comentarios_contar_cambio AFTER UPDATE OF eliminado, oculto, id_capsula, id_material, id_manual ON public.comentarios
  FOR EACH ROW WHEN (OLD.eliminado IS DISTINCT FROM NEW.eliminado OR OLD.oculto IS DISTINCT FROM NEW.oculto
    OR OLD.id_capsula IS DISTINCT FROM NEW.id_capsula OR OLD.id_material IS DISTINCT FROM NEW.id_material
    OR OLD.id_manual IS DISTINCT FROM NEW.id_manual)
  EXECUTE FUNCTION public.comentarios_contar();
--> statement-breakpoint
CREATE TRIGGER foro_comentarios_contar AFTER INSERT OR DELETE ON public.foro_comentarios
  FOR EACH ROW EXECUTE FUNCTION public.foro_comentarios_contar();
--> statement-breakpoint
CREATE TRIGGER foro_comentarios_contar_cambio AFTER UPDATE OF eliminado, oculto, id_conversacion ON public.foro_comentarios
  FOR EACH ROW WHEN (OLD.eliminado IS DISTINCT FROM NEW.eliminado OR OLD.oculto IS DISTINCT FROM NEW.oculto
    OR OLD.id_conversacion IS DISTINCT FROM NEW.id_conversacion)
  EXECUTE FUNCTION public.foro_comentarios_contar();
--> statement-breakpoint
SELECT public.recontar_comentarios();

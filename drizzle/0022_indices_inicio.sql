-- The home's blocks at region size (issue 36): the newest content of a profile's areas and levels
-- through an index instead of a walk back through every row, and a conversation's latest
-- counted comment one index entry away.
CREATE INDEX "capsulas_area_nivel_idx" ON "capsulas" USING btree ("id_area","codigo_nivel","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "foro_comentarios_actividad_idx" ON "foro_comentarios" USING btree ("id_conversacion","fecha_creacion") WHERE not "foro_comentarios"."eliminado" and not "foro_comentarios"."oculto";--> statement-breakpoint
CREATE INDEX "manuales_area_idx" ON "manuales" USING btree ("id_area","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "materiales_area_nivel_idx" ON "materiales" USING btree ("id_area","codigo_nivel","fecha_creacion","id");
CREATE TABLE "perfil_niveles" (
	"id_usuario" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	CONSTRAINT "perfil_niveles_id_usuario_codigo_nivel_pk" PRIMARY KEY("id_usuario","codigo_nivel")
);
--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "visita_ultima" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "visita_anterior" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "perfil_niveles" ADD CONSTRAINT "perfil_niveles_id_usuario_perfiles_docentes_id_usuario_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."perfiles_docentes"("id_usuario") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_niveles" ADD CONSTRAINT "perfil_niveles_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "foro_comentarios_fecha_idx" ON "foro_comentarios" USING btree ("fecha_creacion");--> statement-breakpoint
CREATE INDEX "foro_conversaciones_fecha_idx" ON "foro_conversaciones" USING btree ("fecha_creacion");
CREATE TABLE "notificaciones" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"tipo" text NOT NULL,
	"id_actor" integer,
	"recurso_tipo" text NOT NULL,
	"id_recurso" integer NOT NULL,
	"titulo" text DEFAULT '' NOT NULL,
	"enlace" text NOT NULL,
	"detalle" text DEFAULT '' NOT NULL,
	"leida_en" timestamp with time zone,
	"enviada_en" timestamp with time zone,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comentarios" ADD COLUMN "editado" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comentarios" ADD COLUMN "eliminado" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD COLUMN "editado" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD COLUMN "eliminado" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_conversaciones" ADD COLUMN "editado" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "preferencia_correo" text DEFAULT 'diario' NOT NULL;--> statement-breakpoint
ALTER TABLE "notificaciones" ADD CONSTRAINT "notificaciones_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notificaciones" ADD CONSTRAINT "notificaciones_id_actor_usuarios_id_fk" FOREIGN KEY ("id_actor") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notificaciones_usuario_idx" ON "notificaciones" USING btree ("id_usuario","fecha");
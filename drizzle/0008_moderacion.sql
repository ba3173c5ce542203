CREATE TABLE "denuncias" (
	"id" serial PRIMARY KEY NOT NULL,
	"tipo" text NOT NULL,
	"id_recurso" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"motivo" text NOT NULL,
	"detalle" text DEFAULT '' NOT NULL,
	"estado" text DEFAULT 'abierta' NOT NULL,
	"accion" text,
	"motivo_resolucion" text DEFAULT '' NOT NULL,
	"id_admin" integer,
	"fecha_resolucion" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "comentarios" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "foro_conversaciones" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "oculto" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "denuncias" ADD CONSTRAINT "denuncias_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "denuncias" ADD CONSTRAINT "denuncias_id_admin_usuarios_id_fk" FOREIGN KEY ("id_admin") REFERENCES "public"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "denuncias_una_por_persona_idx" ON "denuncias" USING btree ("tipo","id_recurso","id_usuario");--> statement-breakpoint
CREATE INDEX "denuncias_estado_idx" ON "denuncias" USING btree ("estado","fecha_creacion");
CREATE TABLE "codigos_recuperacion" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"codigo_hash" text NOT NULL,
	"usado" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "segundos_factores" (
	"id_usuario" integer PRIMARY KEY NOT NULL,
	"secreto" text NOT NULL,
	"confirmado" timestamp with time zone,
	"ultimo_paso" bigint,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "codigos_recuperacion" ADD CONSTRAINT "codigos_recuperacion_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segundos_factores" ADD CONSTRAINT "segundos_factores_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "codigos_recuperacion_usuario_idx" ON "codigos_recuperacion" USING btree ("id_usuario");
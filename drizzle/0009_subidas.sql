CREATE TABLE "subidas" (
	"id" text PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"destino" text NOT NULL,
	"nombre" text NOT NULL,
	"tipo" text NOT NULL,
	"tamano" bigint NOT NULL,
	"terminada" timestamp with time zone,
	"usada" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subidas" ADD CONSTRAINT "subidas_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subidas_usuario_idx" ON "subidas" USING btree ("id_usuario");--> statement-breakpoint
CREATE INDEX "subidas_fecha_idx" ON "subidas" USING btree ("fecha_creacion");
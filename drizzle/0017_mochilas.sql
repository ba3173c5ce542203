CREATE TABLE "mochilas" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"origen" text NOT NULL,
	"id_origen" integer NOT NULL,
	"firma" text NOT NULL,
	"nombre" text NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"bytes_total" bigint DEFAULT 0 NOT NULL,
	"bytes_hechos" bigint DEFAULT 0 NOT NULL,
	"clave" text DEFAULT '' NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"expira" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mochilas" ADD CONSTRAINT "mochilas_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mochilas_firma_idx" ON "mochilas" USING btree ("id_usuario","origen","id_origen","firma");--> statement-breakpoint
CREATE INDEX "mochilas_expira_idx" ON "mochilas" USING btree ("estado","expira");
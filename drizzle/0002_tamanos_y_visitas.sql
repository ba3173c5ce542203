CREATE TABLE "visitas" (
	"tipo" text NOT NULL,
	"id_recurso" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"ultima" timestamp with time zone NOT NULL,
	CONSTRAINT "visitas_tipo_id_recurso_id_usuario_pk" PRIMARY KEY("tipo","id_recurso","id_usuario")
);
--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "tamano" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "tamano" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "paginas" integer;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "tamano" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "paginas" integer;--> statement-breakpoint
ALTER TABLE "visitas" ADD CONSTRAINT "visitas_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;
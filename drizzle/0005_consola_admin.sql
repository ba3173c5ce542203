CREATE TABLE "ingresos" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registro_admin" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_admin" integer,
	"admin_email" text NOT NULL,
	"accion" text NOT NULL,
	"tipo" text NOT NULL,
	"id_registro" integer,
	"detalle" text DEFAULT '' NOT NULL,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "desactivada_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ingresos" ADD CONSTRAINT "ingresos_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registro_admin" ADD CONSTRAINT "registro_admin_id_admin_usuarios_id_fk" FOREIGN KEY ("id_admin") REFERENCES "public"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingresos_fecha_idx" ON "ingresos" USING btree ("fecha");--> statement-breakpoint
CREATE INDEX "registro_admin_fecha_idx" ON "registro_admin" USING btree ("fecha");
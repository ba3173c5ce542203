CREATE TABLE "ajustes" (
	"clave" text PRIMARY KEY NOT NULL,
	"valor" jsonb NOT NULL,
	"actualizado" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consentimientos" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"version" text NOT NULL,
	"ip" text,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copias_datos" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"clave" text DEFAULT '' NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"expira" timestamp with time zone,
	"lista_en" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solicitudes_datos" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer,
	"titular" text DEFAULT '' NOT NULL,
	"tipo" text NOT NULL,
	"origen" text DEFAULT 'persona' NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"motivo" text DEFAULT '' NOT NULL,
	"id_admin" integer,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	"fecha_resolucion" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ingresos" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "ingresos" ADD COLUMN "agente" text;--> statement-breakpoint
ALTER TABLE "tokens_refresh" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "tokens_refresh" ADD COLUMN "agente" text;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "oculto_directorio" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "privacidad_version" text;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "privacidad_aceptada_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "baja_programada" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "baja_conservar_aportes" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "eliminada_en" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consentimientos" ADD CONSTRAINT "consentimientos_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copias_datos" ADD CONSTRAINT "copias_datos_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_datos" ADD CONSTRAINT "solicitudes_datos_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solicitudes_datos" ADD CONSTRAINT "solicitudes_datos_id_admin_usuarios_id_fk" FOREIGN KEY ("id_admin") REFERENCES "public"."usuarios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consentimientos_usuario_idx" ON "consentimientos" USING btree ("id_usuario","fecha");--> statement-breakpoint
CREATE INDEX "copias_datos_usuario_idx" ON "copias_datos" USING btree ("id_usuario","fecha_creacion");--> statement-breakpoint
CREATE INDEX "solicitudes_datos_estado_idx" ON "solicitudes_datos" USING btree ("estado","fecha_creacion");
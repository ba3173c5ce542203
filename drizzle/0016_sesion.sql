CREATE TABLE "codigos_recuperacion" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"codigo_hash" text NOT NULL,
	"usado" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "coleccion_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_coleccion" integer NOT NULL,
	"tipo" text NOT NULL,
	"id_item" integer NOT NULL,
	"nota" text DEFAULT '' NOT NULL,
	"posicion" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "colecciones" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text DEFAULT '' NOT NULL,
	"compartida" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"id_origen" integer,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	"fecha_actualizacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flujos_oidc" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"proveedor" text NOT NULL,
	"state" text NOT NULL,
	"nonce" text NOT NULL,
	"verificador" text NOT NULL,
	"destino" text DEFAULT '/' NOT NULL,
	"id_usuario" integer,
	"expira" timestamp with time zone NOT NULL,
	"usado" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "guardados" (
	"id_usuario" integer NOT NULL,
	"tipo" text NOT NULL,
	"id_item" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guardados_id_usuario_tipo_id_item_pk" PRIMARY KEY("id_usuario","tipo","id_item")
);
--> statement-breakpoint
CREATE TABLE "identidades" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"proveedor" text NOT NULL,
	"sub" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	"ultimo_uso" timestamp with time zone
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
DROP INDEX "capsulas_fecha_idx";--> statement-breakpoint
DROP INDEX "comentarios_capsula_idx";--> statement-breakpoint
DROP INDEX "comentarios_material_idx";--> statement-breakpoint
DROP INDEX "comentarios_manual_idx";--> statement-breakpoint
DROP INDEX "manuales_fecha_idx";--> statement-breakpoint
DROP INDEX "materiales_fecha_idx";--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "licencia" text DEFAULT 'reservados' NOT NULL;--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "visibilidad" text DEFAULT 'red' NOT NULL;--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "fecha_actualizacion" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "licencia" text DEFAULT 'reservados' NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "visibilidad" text DEFAULT 'red' NOT NULL;--> statement-breakpoint
ALTER TABLE "manuales" ADD COLUMN "fecha_actualizacion" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "licencia" text DEFAULT 'reservados' NOT NULL;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "visibilidad" text DEFAULT 'red' NOT NULL;--> statement-breakpoint
ALTER TABLE "materiales" ADD COLUMN "fecha_actualizacion" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "codigos_recuperacion" ADD CONSTRAINT "codigos_recuperacion_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coleccion_items" ADD CONSTRAINT "coleccion_items_id_coleccion_colecciones_id_fk" FOREIGN KEY ("id_coleccion") REFERENCES "public"."colecciones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "colecciones" ADD CONSTRAINT "colecciones_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flujos_oidc" ADD CONSTRAINT "flujos_oidc_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardados" ADD CONSTRAINT "guardados_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identidades" ADD CONSTRAINT "identidades_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segundos_factores" ADD CONSTRAINT "segundos_factores_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "codigos_recuperacion_usuario_idx" ON "codigos_recuperacion" USING btree ("id_usuario");--> statement-breakpoint
CREATE UNIQUE INDEX "coleccion_items_item_idx" ON "coleccion_items" USING btree ("id_coleccion","tipo","id_item");--> statement-breakpoint
CREATE INDEX "coleccion_items_posicion_idx" ON "coleccion_items" USING btree ("id_coleccion","posicion");--> statement-breakpoint
CREATE INDEX "colecciones_usuario_idx" ON "colecciones" USING btree ("id_usuario");--> statement-breakpoint
CREATE INDEX "flujos_oidc_expira_idx" ON "flujos_oidc" USING btree ("expira");--> statement-breakpoint
CREATE INDEX "guardados_usuario_fecha_idx" ON "guardados" USING btree ("id_usuario","fecha_creacion");--> statement-breakpoint
CREATE UNIQUE INDEX "identidades_proveedor_sub_idx" ON "identidades" USING btree ("proveedor","sub");--> statement-breakpoint
CREATE UNIQUE INDEX "identidades_usuario_proveedor_idx" ON "identidades" USING btree ("id_usuario","proveedor");--> statement-breakpoint
CREATE INDEX "capsulas_visitas_idx" ON "capsulas" USING btree ("n_visitas","id");--> statement-breakpoint
CREATE INDEX "comentarios_respuesta_idx" ON "comentarios" USING btree ("id_respuesta_comentario");--> statement-breakpoint
CREATE INDEX "foro_comentarios_padre_idx" ON "foro_comentarios" USING btree ("comentario_padre");--> statement-breakpoint
CREATE INDEX "manuales_visitas_idx" ON "manuales" USING btree ("n_visitas","id");--> statement-breakpoint
CREATE INDEX "materiales_visitas_idx" ON "materiales" USING btree ("n_visitas","id");--> statement-breakpoint
CREATE INDEX "materiales_unidad_idx" ON "materiales" USING btree ("id_unidad","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "capsulas_fecha_idx" ON "capsulas" USING btree ("fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "comentarios_capsula_idx" ON "comentarios" USING btree ("id_capsula","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "comentarios_material_idx" ON "comentarios" USING btree ("id_material","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "comentarios_manual_idx" ON "comentarios" USING btree ("id_manual","fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "manuales_fecha_idx" ON "manuales" USING btree ("fecha_creacion","id");--> statement-breakpoint
CREATE INDEX "materiales_fecha_idx" ON "materiales" USING btree ("fecha_creacion","id");
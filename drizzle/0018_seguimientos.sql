CREATE TABLE "seguimientos" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"tipo" text NOT NULL,
	"clave" text NOT NULL,
	"id_oa" integer,
	"id_area" integer,
	"codigo_nivel" text,
	"id_seguido" integer,
	"id_categoria" integer,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notificaciones" ADD COLUMN "cantidad" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_id_oa_oas_id_fk" FOREIGN KEY ("id_oa") REFERENCES "public"."oas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_id_seguido_usuarios_id_fk" FOREIGN KEY ("id_seguido") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seguimientos" ADD CONSTRAINT "seguimientos_id_categoria_foro_categorias_id_fk" FOREIGN KEY ("id_categoria") REFERENCES "public"."foro_categorias"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seguimientos_usuario_clave_idx" ON "seguimientos" USING btree ("id_usuario","clave");--> statement-breakpoint
CREATE INDEX "seguimientos_clave_idx" ON "seguimientos" USING btree ("clave");
CREATE TABLE "unidades_niveles" (
	"id_unidad" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	CONSTRAINT "unidades_niveles_id_unidad_codigo_nivel_pk" PRIMARY KEY("id_unidad","codigo_nivel")
);
--> statement-breakpoint
ALTER TABLE "unidades_niveles" ADD CONSTRAINT "unidades_niveles_id_unidad_unidades_id_fk" FOREIGN KEY ("id_unidad") REFERENCES "public"."unidades"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unidades_niveles" ADD CONSTRAINT "unidades_niveles_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unidades_niveles_nivel_idx" ON "unidades_niveles" USING btree ("codigo_nivel");
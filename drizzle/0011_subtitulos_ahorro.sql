CREATE TABLE "subtitulos" (
	"id_capsula" integer NOT NULL,
	"idioma" text NOT NULL,
	"vtt" text NOT NULL,
	"lineas" jsonb NOT NULL,
	"texto" text NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subtitulos_id_capsula_idioma_pk" PRIMARY KEY("id_capsula","idioma")
);
--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "tamano_liviana" bigint;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "ahorro_datos" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subtitulos" ADD CONSTRAINT "subtitulos_id_capsula_capsulas_id_fk" FOREIGN KEY ("id_capsula") REFERENCES "public"."capsulas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The capsule search over what is said in the videos (issue 20), as drizzle/0001_busqueda.sql does for titles.
CREATE INDEX IF NOT EXISTS subtitulos_busqueda_idx ON subtitulos USING gin (public.busqueda_es(texto));

CREATE TABLE "bloqueos" (
	"clave" text PRIMARY KEY NOT NULL,
	"dueno" text NOT NULL,
	"hasta" timestamp with time zone NOT NULL,
	"liberar" boolean DEFAULT false NOT NULL
);

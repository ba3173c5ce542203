-- The home's visits in a table of their own (issue 36, decision 0082): a write to "usuarios" makes
-- every read cache built on it (the signed-in person of every page, the capsule pages) read again
-- for everyone, and each teacher's first opening of Inicio in a visit was such a write.
CREATE TABLE "visitas_inicio" (
	"id_usuario" integer PRIMARY KEY NOT NULL,
	"visita_ultima" timestamp with time zone NOT NULL,
	"visita_anterior" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "visitas_inicio" ADD CONSTRAINT "visitas_inicio_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Each person's last openings move as they are: a reload after the upgrade is still the same visit.
INSERT INTO "visitas_inicio" ("id_usuario", "visita_ultima", "visita_anterior")
SELECT "id", "visita_ultima", "visita_anterior" FROM "usuarios" WHERE "visita_ultima" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "usuarios" DROP COLUMN "visita_ultima";--> statement-breakpoint
ALTER TABLE "usuarios" DROP COLUMN "visita_anterior";
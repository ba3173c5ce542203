ALTER TABLE "oas" ADD COLUMN "orden" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "oas" ADD COLUMN "vigente" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "oas" ADD COLUMN "fuente" text;--> statement-breakpoint
ALTER TABLE "unidades" ADD COLUMN "orden" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "unidades" ADD COLUMN "vigente" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "unidades" SET "orden" = n."rn" FROM (SELECT "id", row_number() OVER (PARTITION BY "id_area", "codigo_nivel" ORDER BY "codigo") AS "rn" FROM "unidades") AS n WHERE "unidades"."id" = n."id";--> statement-breakpoint
UPDATE "oas" SET "orden" = n."rn" FROM (SELECT "id", row_number() OVER (PARTITION BY "id_unidad" ORDER BY "codigo") AS "rn" FROM "oas") AS n WHERE "oas"."id" = n."id";

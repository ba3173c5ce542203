ALTER TABLE "capsulas" ADD COLUMN "mensaje_error" text;--> statement-breakpoint
ALTER TABLE "capsulas" ADD COLUMN "duracion" real;
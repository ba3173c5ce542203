CREATE TABLE "correos" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"para" text NOT NULL,
	"asunto" text NOT NULL,
	"texto" text NOT NULL,
	"html" text NOT NULL,
	"responder_a" text,
	"enlace" text,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"intentos" integer DEFAULT 0 NOT NULL,
	"proximo_intento" timestamp with time zone DEFAULT now() NOT NULL,
	"ultimo_error" text,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	"fecha_envio" timestamp with time zone,
	CONSTRAINT "correos_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "ejecutores" (
	"id" text PRIMARY KEY NOT NULL,
	"servicio" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"iniciado" timestamp with time zone DEFAULT now() NOT NULL,
	"latido" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "correos_pendientes_idx" ON "correos" USING btree ("estado","proximo_intento");
CREATE TABLE "areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"codigo" text NOT NULL,
	"nombre" text NOT NULL,
	CONSTRAINT "areas_codigo_unique" UNIQUE("codigo")
);
--> statement-breakpoint
CREATE TABLE "areas_niveles" (
	"id_area" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	CONSTRAINT "areas_niveles_id_area_codigo_nivel_pk" PRIMARY KEY("id_area","codigo_nivel")
);
--> statement-breakpoint
CREATE TABLE "capsulas" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" text NOT NULL,
	"descripcion" text NOT NULL,
	"extension" text NOT NULL,
	"archivo" text NOT NULL,
	"estado" text DEFAULT 'procesando' NOT NULL,
	"n_visitas" integer DEFAULT 0 NOT NULL,
	"id_area" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	"id_metodologia" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "colegios" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	CONSTRAINT "colegios_nombre_unique" UNIQUE("nombre")
);
--> statement-breakpoint
CREATE TABLE "comentarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"contenido" text NOT NULL,
	"id_usuario" integer NOT NULL,
	"id_respuesta_comentario" integer,
	"id_capsula" integer,
	"id_material" integer,
	"id_manual" integer,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comentarios_un_recurso" CHECK (num_nonnulls("comentarios"."id_capsula", "comentarios"."id_material", "comentarios"."id_manual") = 1)
);
--> statement-breakpoint
CREATE TABLE "especialidades" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	CONSTRAINT "especialidades_nombre_unique" UNIQUE("nombre")
);
--> statement-breakpoint
CREATE TABLE "foro_categorias" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text NOT NULL,
	"activa" boolean DEFAULT false NOT NULL,
	"archivo" text NOT NULL,
	"n_visitas" integer DEFAULT 0 NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "foro_categorias_nombre_unique" UNIQUE("nombre")
);
--> statement-breakpoint
CREATE TABLE "foro_comentarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_conversacion" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"comentario_padre" integer,
	"contenido" text NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "foro_conversaciones" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_categoria" integer NOT NULL,
	"id_usuario_creador" integer NOT NULL,
	"titulo" text NOT NULL,
	"contenido" text NOT NULL,
	"n_visitas" integer DEFAULT 0 NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "foro_reacciones_comentario" (
	"id_comentario" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"id_like" smallint NOT NULL,
	CONSTRAINT "foro_reacciones_comentario_id_comentario_id_usuario_id_like_pk" PRIMARY KEY("id_comentario","id_usuario","id_like"),
	CONSTRAINT "foro_reaccion_comentario_tipo" CHECK ("foro_reacciones_comentario"."id_like" in (1, 3))
);
--> statement-breakpoint
CREATE TABLE "foro_reacciones_conversacion" (
	"id_conversacion" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"id_like" smallint NOT NULL,
	CONSTRAINT "foro_reacciones_conversacion_id_conversacion_id_usuario_id_like_pk" PRIMARY KEY("id_conversacion","id_usuario","id_like"),
	CONSTRAINT "foro_reaccion_conversacion_tipo" CHECK ("foro_reacciones_conversacion"."id_like" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "likes_capsulas" (
	"id_capsula" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "likes_capsulas_id_capsula_id_usuario_pk" PRIMARY KEY("id_capsula","id_usuario")
);
--> statement-breakpoint
CREATE TABLE "likes_manuales" (
	"id_manual" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "likes_manuales_id_manual_id_usuario_pk" PRIMARY KEY("id_manual","id_usuario")
);
--> statement-breakpoint
CREATE TABLE "likes_materiales" (
	"id_material" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "likes_materiales_id_material_id_usuario_pk" PRIMARY KEY("id_material","id_usuario")
);
--> statement-breakpoint
CREATE TABLE "limites_intentos" (
	"clave" text PRIMARY KEY NOT NULL,
	"ventana_inicio" timestamp with time zone NOT NULL,
	"intentos" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manuales" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" text NOT NULL,
	"autor" text NOT NULL,
	"descripcion" text NOT NULL,
	"extension" text NOT NULL,
	"archivo" text NOT NULL,
	"id_area" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"n_visitas" integer DEFAULT 0 NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "materiales" (
	"id" serial PRIMARY KEY NOT NULL,
	"titulo" text NOT NULL,
	"descripcion" text NOT NULL,
	"extension" text NOT NULL,
	"archivo" text NOT NULL,
	"id_area" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	"id_unidad" integer NOT NULL,
	"id_tipo_material" integer NOT NULL,
	"id_usuario" integer NOT NULL,
	"n_visitas" integer DEFAULT 0 NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "materiales_oas" (
	"id_material" integer NOT NULL,
	"id_oa" integer NOT NULL,
	CONSTRAINT "materiales_oas_id_material_id_oa_pk" PRIMARY KEY("id_material","id_oa")
);
--> statement-breakpoint
CREATE TABLE "mensajes_ayuda" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario_sender" integer NOT NULL,
	"asunto" text NOT NULL,
	"mensaje" text NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mensajes_contacto" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario_sender" integer NOT NULL,
	"id_usuario_receiver" integer NOT NULL,
	"asunto" text NOT NULL,
	"mensaje" text NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metodologias" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	CONSTRAINT "metodologias_nombre_unique" UNIQUE("nombre")
);
--> statement-breakpoint
CREATE TABLE "niveles" (
	"codigo" text PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	"ciclo" text NOT NULL,
	"orden" smallint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oas" (
	"id" serial PRIMARY KEY NOT NULL,
	"codigo" text NOT NULL,
	"descripcion" text NOT NULL,
	"id_unidad" integer NOT NULL,
	CONSTRAINT "oas_codigo_unique" UNIQUE("codigo")
);
--> statement-breakpoint
CREATE TABLE "perfil_areas" (
	"id_usuario" integer NOT NULL,
	"id_area" integer NOT NULL,
	CONSTRAINT "perfil_areas_id_usuario_id_area_pk" PRIMARY KEY("id_usuario","id_area")
);
--> statement-breakpoint
CREATE TABLE "perfil_colegios" (
	"id_usuario" integer NOT NULL,
	"id_colegio" integer NOT NULL,
	CONSTRAINT "perfil_colegios_id_usuario_id_colegio_pk" PRIMARY KEY("id_usuario","id_colegio")
);
--> statement-breakpoint
CREATE TABLE "perfil_especialidades" (
	"id_usuario" integer NOT NULL,
	"id_especialidad" integer NOT NULL,
	CONSTRAINT "perfil_especialidades_id_usuario_id_especialidad_pk" PRIMARY KEY("id_usuario","id_especialidad")
);
--> statement-breakpoint
CREATE TABLE "perfiles_docentes" (
	"id_usuario" integer PRIMARY KEY NOT NULL,
	"titulo_profesional" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tipos_material" (
	"id" serial PRIMARY KEY NOT NULL,
	"nombre" text NOT NULL,
	CONSTRAINT "tipos_material_nombre_unique" UNIQUE("nombre")
);
--> statement-breakpoint
CREATE TABLE "tokens_cuenta" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"tipo" text NOT NULL,
	"token_hash" text NOT NULL,
	"expira" timestamp with time zone NOT NULL,
	"usado" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tokens_cuenta_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "tokens_refresh" (
	"id" serial PRIMARY KEY NOT NULL,
	"id_usuario" integer NOT NULL,
	"familia" text NOT NULL,
	"token_hash" text NOT NULL,
	"expira" timestamp with time zone NOT NULL,
	"rotado" timestamp with time zone,
	"revocado" timestamp with time zone,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tokens_refresh_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "trabajos" (
	"id" serial PRIMARY KEY NOT NULL,
	"tipo" text NOT NULL,
	"datos" jsonb NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"intentos" integer DEFAULT 0 NOT NULL,
	"max_intentos" integer DEFAULT 5 NOT NULL,
	"ejecutar_desde" timestamp with time zone DEFAULT now() NOT NULL,
	"bloqueado_hasta" timestamp with time zone,
	"ultimo_error" text,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unidades" (
	"id" serial PRIMARY KEY NOT NULL,
	"codigo" text NOT NULL,
	"nombre" text NOT NULL,
	"id_area" integer NOT NULL,
	"codigo_nivel" text NOT NULL,
	CONSTRAINT "unidades_codigo_unique" UNIQUE("codigo")
);
--> statement-breakpoint
CREATE TABLE "usuarios" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"activo" boolean DEFAULT false NOT NULL,
	"primer_nombre" text NOT NULL,
	"segundo_nombre" text DEFAULT '' NOT NULL,
	"apellido_paterno" text NOT NULL,
	"apellido_materno" text DEFAULT '' NOT NULL,
	"rut" text DEFAULT '' NOT NULL,
	"genero" text DEFAULT '' NOT NULL,
	"nacionalidad" text DEFAULT '' NOT NULL,
	"telefono" text DEFAULT '' NOT NULL,
	"fecha_nacimiento" date,
	"foto_perfil" text DEFAULT '' NOT NULL,
	"rol" text DEFAULT 'Profesor' NOT NULL,
	"groups" text[] DEFAULT '{}'::text[] NOT NULL,
	"fecha_creacion" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "areas_niveles" ADD CONSTRAINT "areas_niveles_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas_niveles" ADD CONSTRAINT "areas_niveles_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capsulas" ADD CONSTRAINT "capsulas_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capsulas" ADD CONSTRAINT "capsulas_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capsulas" ADD CONSTRAINT "capsulas_id_metodologia_metodologias_id_fk" FOREIGN KEY ("id_metodologia") REFERENCES "public"."metodologias"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capsulas" ADD CONSTRAINT "capsulas_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comentarios" ADD CONSTRAINT "comentarios_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comentarios" ADD CONSTRAINT "comentarios_id_respuesta_comentario_comentarios_id_fk" FOREIGN KEY ("id_respuesta_comentario") REFERENCES "public"."comentarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comentarios" ADD CONSTRAINT "comentarios_id_capsula_capsulas_id_fk" FOREIGN KEY ("id_capsula") REFERENCES "public"."capsulas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comentarios" ADD CONSTRAINT "comentarios_id_material_materiales_id_fk" FOREIGN KEY ("id_material") REFERENCES "public"."materiales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comentarios" ADD CONSTRAINT "comentarios_id_manual_manuales_id_fk" FOREIGN KEY ("id_manual") REFERENCES "public"."manuales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD CONSTRAINT "foro_comentarios_id_conversacion_foro_conversaciones_id_fk" FOREIGN KEY ("id_conversacion") REFERENCES "public"."foro_conversaciones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD CONSTRAINT "foro_comentarios_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_comentarios" ADD CONSTRAINT "foro_comentarios_comentario_padre_foro_comentarios_id_fk" FOREIGN KEY ("comentario_padre") REFERENCES "public"."foro_comentarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_conversaciones" ADD CONSTRAINT "foro_conversaciones_id_categoria_foro_categorias_id_fk" FOREIGN KEY ("id_categoria") REFERENCES "public"."foro_categorias"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_conversaciones" ADD CONSTRAINT "foro_conversaciones_id_usuario_creador_usuarios_id_fk" FOREIGN KEY ("id_usuario_creador") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_reacciones_comentario" ADD CONSTRAINT "foro_reacciones_comentario_id_comentario_foro_comentarios_id_fk" FOREIGN KEY ("id_comentario") REFERENCES "public"."foro_comentarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_reacciones_comentario" ADD CONSTRAINT "foro_reacciones_comentario_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_reacciones_conversacion" ADD CONSTRAINT "foro_reacciones_conversacion_id_conversacion_foro_conversaciones_id_fk" FOREIGN KEY ("id_conversacion") REFERENCES "public"."foro_conversaciones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foro_reacciones_conversacion" ADD CONSTRAINT "foro_reacciones_conversacion_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_capsulas" ADD CONSTRAINT "likes_capsulas_id_capsula_capsulas_id_fk" FOREIGN KEY ("id_capsula") REFERENCES "public"."capsulas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_capsulas" ADD CONSTRAINT "likes_capsulas_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_manuales" ADD CONSTRAINT "likes_manuales_id_manual_manuales_id_fk" FOREIGN KEY ("id_manual") REFERENCES "public"."manuales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_manuales" ADD CONSTRAINT "likes_manuales_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_materiales" ADD CONSTRAINT "likes_materiales_id_material_materiales_id_fk" FOREIGN KEY ("id_material") REFERENCES "public"."materiales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes_materiales" ADD CONSTRAINT "likes_materiales_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuales" ADD CONSTRAINT "manuales_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manuales" ADD CONSTRAINT "manuales_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales" ADD CONSTRAINT "materiales_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales" ADD CONSTRAINT "materiales_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales" ADD CONSTRAINT "materiales_id_unidad_unidades_id_fk" FOREIGN KEY ("id_unidad") REFERENCES "public"."unidades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales" ADD CONSTRAINT "materiales_id_tipo_material_tipos_material_id_fk" FOREIGN KEY ("id_tipo_material") REFERENCES "public"."tipos_material"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales" ADD CONSTRAINT "materiales_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales_oas" ADD CONSTRAINT "materiales_oas_id_material_materiales_id_fk" FOREIGN KEY ("id_material") REFERENCES "public"."materiales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materiales_oas" ADD CONSTRAINT "materiales_oas_id_oa_oas_id_fk" FOREIGN KEY ("id_oa") REFERENCES "public"."oas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensajes_ayuda" ADD CONSTRAINT "mensajes_ayuda_id_usuario_sender_usuarios_id_fk" FOREIGN KEY ("id_usuario_sender") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensajes_contacto" ADD CONSTRAINT "mensajes_contacto_id_usuario_sender_usuarios_id_fk" FOREIGN KEY ("id_usuario_sender") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mensajes_contacto" ADD CONSTRAINT "mensajes_contacto_id_usuario_receiver_usuarios_id_fk" FOREIGN KEY ("id_usuario_receiver") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oas" ADD CONSTRAINT "oas_id_unidad_unidades_id_fk" FOREIGN KEY ("id_unidad") REFERENCES "public"."unidades"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_areas" ADD CONSTRAINT "perfil_areas_id_usuario_perfiles_docentes_id_usuario_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."perfiles_docentes"("id_usuario") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_areas" ADD CONSTRAINT "perfil_areas_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_colegios" ADD CONSTRAINT "perfil_colegios_id_usuario_perfiles_docentes_id_usuario_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."perfiles_docentes"("id_usuario") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_colegios" ADD CONSTRAINT "perfil_colegios_id_colegio_colegios_id_fk" FOREIGN KEY ("id_colegio") REFERENCES "public"."colegios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_especialidades" ADD CONSTRAINT "perfil_especialidades_id_usuario_perfiles_docentes_id_usuario_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."perfiles_docentes"("id_usuario") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfil_especialidades" ADD CONSTRAINT "perfil_especialidades_id_especialidad_especialidades_id_fk" FOREIGN KEY ("id_especialidad") REFERENCES "public"."especialidades"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perfiles_docentes" ADD CONSTRAINT "perfiles_docentes_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens_cuenta" ADD CONSTRAINT "tokens_cuenta_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tokens_refresh" ADD CONSTRAINT "tokens_refresh_id_usuario_usuarios_id_fk" FOREIGN KEY ("id_usuario") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unidades" ADD CONSTRAINT "unidades_id_area_areas_id_fk" FOREIGN KEY ("id_area") REFERENCES "public"."areas"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unidades" ADD CONSTRAINT "unidades_codigo_nivel_niveles_codigo_fk" FOREIGN KEY ("codigo_nivel") REFERENCES "public"."niveles"("codigo") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "capsulas_fecha_idx" ON "capsulas" USING btree ("fecha_creacion");--> statement-breakpoint
CREATE INDEX "capsulas_usuario_idx" ON "capsulas" USING btree ("id_usuario");--> statement-breakpoint
CREATE INDEX "comentarios_capsula_idx" ON "comentarios" USING btree ("id_capsula");--> statement-breakpoint
CREATE INDEX "comentarios_material_idx" ON "comentarios" USING btree ("id_material");--> statement-breakpoint
CREATE INDEX "comentarios_manual_idx" ON "comentarios" USING btree ("id_manual");--> statement-breakpoint
CREATE INDEX "foro_comentarios_conversacion_idx" ON "foro_comentarios" USING btree ("id_conversacion");--> statement-breakpoint
CREATE INDEX "foro_conversaciones_categoria_idx" ON "foro_conversaciones" USING btree ("id_categoria","fecha_creacion");--> statement-breakpoint
CREATE INDEX "manuales_fecha_idx" ON "manuales" USING btree ("fecha_creacion");--> statement-breakpoint
CREATE INDEX "materiales_fecha_idx" ON "materiales" USING btree ("fecha_creacion");--> statement-breakpoint
CREATE INDEX "materiales_usuario_idx" ON "materiales" USING btree ("id_usuario");--> statement-breakpoint
CREATE INDEX "materiales_oas_oa_idx" ON "materiales_oas" USING btree ("id_oa");--> statement-breakpoint
CREATE INDEX "tokens_cuenta_usuario_idx" ON "tokens_cuenta" USING btree ("id_usuario","tipo");--> statement-breakpoint
CREATE INDEX "tokens_refresh_familia_idx" ON "tokens_refresh" USING btree ("familia");--> statement-breakpoint
CREATE INDEX "tokens_refresh_usuario_idx" ON "tokens_refresh" USING btree ("id_usuario");--> statement-breakpoint
CREATE INDEX "trabajos_pendientes_idx" ON "trabajos" USING btree ("estado","ejecutar_desde");--> statement-breakpoint
CREATE INDEX "unidades_area_nivel_idx" ON "unidades" USING btree ("id_area","codigo_nivel");--> statement-breakpoint
CREATE UNIQUE INDEX "usuarios_email_idx" ON "usuarios" USING btree ("email");
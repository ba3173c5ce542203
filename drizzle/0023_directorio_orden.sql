-- The community directory in its order (issue 36): surname, first name, id, accents and case aside,
-- as `comunidad.buscar` sorts it. Without this index every search sorted all its matches (1,291 for
-- 'gonzalez' at 100x, 15 ms) and the unfiltered directory sorted every account; now a page is read
-- in order, the name condition checked on the way (1.4 ms and 0.3 ms). f_unaccent is immutable
-- (drizzle/0019's trigram index uses it too).
CREATE INDEX IF NOT EXISTS usuarios_orden_nombre_idx ON usuarios (
  (lower(public.f_unaccent(apellido_paterno))), (lower(public.f_unaccent(primer_nombre))), id
);

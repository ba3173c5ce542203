/**
 * Upload (/biblioteca-docente/subir) and edit (/biblioteca-docente/editar/{id}) a teacher material
 * (docs/SPEC.md sections 2, 4, 5, 7 and 8). The curriculum cascade: changing the level or the area
 * clears the unit and the selected OAs and reloads the units; choosing a unit lists its OAs as
 * available, and OAs already selected stay selected (a material may serve OAs of several units,
 * decision 0012). The file is checked in the browser (extension, size) and again by the server
 * (its bytes). Uploading shows the real percentage sent; the server's field messages land on
 * their fields. The upload may come preselected from the URL (the curriculum map's 'Subir material'),
 * and the OAs of the chosen area and level with no material yet are marked (issue 21).
 */
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { extensionDe, validarArchivoMaterial } from '../../lib/validation/archivos';
import type { MaterialInput } from '../../lib/validation/biblioteca';
import { Campo, Selector, useHidratado } from '../comun/Campo';
import { CamposPublicacion } from '../comun/CamposPublicacion';
import { campoPropio } from '../comun/campoPropio';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { conSubida, useArchivo, useSubida } from '../comun/formularioSubida';
import { MENSAJES } from '../comun/mensajes';
import { PieSubida } from '../comun/PieSubida';
import { useSubidaReanudable } from '../comun/reanudable';
import { subir } from '../comun/subida';
import { useUsuarioActivo } from '../comun/usuario';
import { validacionDiferida } from '../comun/validacion';
import { ZonaArchivo } from '../comun/ZonaArchivo';
import { useCascada, VACIO } from './cascada';
import { hrefSinMateriales, useOasSinMateriales } from './cobertura';
import type { OA, Unidad } from './curriculo';
import { ListasOA } from './ListasOA';
import type { ValoresMaterial } from './resolvers';

const CAMPOS = [
  'id_nivel',
  'id_area',
  'id_unidad',
  'oas',
  'titulo',
  'descripcion',
  'tipo_material_docente',
  'licencia',
  'visibilidad',
] as const;

const validacion = validacionDiferida<ValoresMaterial, MaterialInput>(() => import('./resolvers').then((m) => m.material));

export interface FormularioMaterialProps {
  niveles: { codigo: string; nombre: string }[];
  areas: { id: number; nombre: string }[];
  tipos: { id: number; nombre: string }[];
  /** The author's name, shown read-only (the person uploading, or the material's author). */
  autor: string;
  /** The licence and visibility the form starts with: the material's, or on upload the network's default and 'red' (issue 34). */
  publicacion: { licencia: string; visibilidad: string };
  /** Upload: the allowed extensions, the hint and the server's size limit. */
  archivo?: { accept: string; ayuda: string; limiteBytes: number };
  /** Edit: the material as it is, with the units of its level and area and the OAs of its unit. */
  material?: {
    id: number;
    titulo: string;
    descripcion: string;
    extension: string;
    id_nivel: string;
    id_area: number;
    id_unidad: number;
    tipo_material_docente: number;
    oas: OA[];
    unidades: Unidad[];
    oasUnidad: OA[];
  };
  /** Upload: choices the URL brought (?id_area=&id_nivel=&id_unidad=&oa=), checked by the page, with the options they need. */
  preseleccion?: {
    id_nivel?: string | undefined;
    id_area?: number | undefined;
    id_unidad?: number | undefined;
    oas: OA[];
    unidades: Unidad[];
    oasUnidad: OA[];
  };
}

const porCodigo = (a: OA, b: OA) => a.codigo.localeCompare(b.codigo, 'es');

export default function FormularioMaterial({
  niveles,
  areas,
  tipos,
  autor,
  archivo: reglasArchivo,
  material,
  preseleccion,
  publicacion,
}: FormularioMaterialProps) {
  const hidratado = useHidratado();
  const editando = material !== undefined;
  const previo = material ?? preseleccion;
  const inicial: ValoresMaterial = {
    id_nivel: previo?.id_nivel ?? VACIO,
    id_area: String(previo?.id_area ?? VACIO),
    id_unidad: String(previo?.id_unidad ?? VACIO),
    oas: previo?.oas ?? [],
    titulo: material?.titulo ?? '',
    descripcion: material?.descripcion ?? '',
    tipo_material_docente: String(material?.tipo_material_docente ?? VACIO),
    licencia: publicacion.licencia,
    visibilidad: publicacion.visibilidad,
  };
  const form = useForm<ValoresMaterial, unknown, MaterialInput>({
    resolver: validacion.resolver,
    mode: 'onTouched',
    defaultValues: inicial,
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    trigger,
    formState: { errors, isSubmitting },
  } = form;
  const { unidades, estadoUnidades, avisoUnidades, oasUnidad, avisoOas, cargarUnidades, cargarOas } = useCascada(previo);
  // watch, not useWatch: the login pages share react-hook-form's chunk, and another import of it grows theirs.
  const [areaElegida, nivelElegido] = form.watch(['id_area', 'id_nivel']);
  const sinMateriales = useOasSinMateriales(areaElegida, nivelElegido);

  const tus = useSubidaReanudable('material', useUsuarioActivo()?.id);
  const documento = useArchivo((elegido) => {
    if (reglasArchivo && elegido && elegido.size > reglasArchivo.limiteBytes) {
      return `El archivo supera el tamaño máximo permitido (${Math.floor(reglasArchivo.limiteBytes / 1024 / 1024)} MB)`;
    }
    return validarArchivoMaterial(elegido);
  }, tus);
  const { progreso, listo, enviar } = useSubida(setError, CAMPOS, documento.ponerError);

  // In the page's order, which is the order focus looks for the first wrong field in. The
  // curriculum choices and the type are checked as soon as they change, not when left.
  const nivel = register('id_nivel', { onChange: () => cambiarNivelOArea('id_nivel') });
  const area = register('id_area', { onChange: () => cambiarNivelOArea('id_area') });
  const unidad = register('id_unidad', { onChange: () => cambiarUnidad() });
  const oas = campoPropio(form, 'oas');
  const titulo = register('titulo');
  const descripcion = campoPropio(form, 'descripcion');
  const tipo = register('tipo_material_docente', { onChange: () => trigger('tipo_material_docente') });

  /** docs/SPEC.md section 4: a new level or area clears the unit and the selected OAs. */
  function cambiarNivelOArea(campo: 'id_nivel' | 'id_area') {
    setValue('id_unidad', VACIO);
    setValue('oas', []);
    void trigger(campo);
    void cargarUnidades(getValues('id_nivel'), getValues('id_area'));
  }

  function cambiarUnidad() {
    void trigger('id_unidad');
    void cargarOas(getValues('id_unidad'));
  }

  const cambiarOas = (nuevos: OA[]) => setValue('oas', nuevos, { shouldValidate: true });

  const guardar = (evento: FormEvent<HTMLFormElement>) => {
    // The file is checked with the fields, so every message shows at once.
    const archivo = editando ? null : documento.valido();
    return handleSubmit(async (valores) => {
      if (material) {
        await enviar(
          (onProgreso) => subir('PUT', '/api/bdocente/', { ...valores, id: material.id, extension: material.extension }, onProgreso),
          {
            exito: MENSAJES.material.editado(valores.titulo),
            fallo: MENSAJES.material.noEditado,
            destino: `/biblioteca-docente/${material.id}`,
          },
        );
      } else if (archivo) {
        const extension = extensionDe(archivo.name) ?? '';
        await enviar(
          conSubida(tus, archivo, (id_subida) => subir('POST', '/api/bdocente/', { ...valores, extension, id_subida })),
          {
            exito: MENSAJES.material.agregado(valores.titulo),
            fallo: MENSAJES.material.noSubido,
            destino: '/biblioteca-docente/',
          },
        );
      }
    })(evento);
  };

  const elegidos = new Set(oas.value.map((o) => o.id));
  const disponibles = oasUnidad.filter((o) => !elegidos.has(o.id));
  const ocupado = isSubmitting || listo;

  return (
    <form
      className="formulario-contenido formulario-material"
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={validacion.precargar}
      aria-label={editando ? 'Editar material' : 'Subir material'}
    >
      <div className="fila">
        <div>
          <Selector
            id="id_nivel"
            etiqueta="Nivel"
            defaultValue={inicial.id_nivel}
            registro={nivel}
            error={errors.id_nivel?.message}
            vacio={VACIO}
            opciones={niveles}
          />
        </div>
        <div>
          <Selector
            id="id_area"
            etiqueta="Área"
            defaultValue={inicial.id_area}
            registro={area}
            error={errors.id_area?.message}
            vacio={VACIO}
            opciones={areas}
          />
        </div>
        <div>
          <Selector
            id="id_unidad"
            etiqueta="Unidad"
            defaultValue={inicial.id_unidad}
            registro={unidad}
            error={errors.id_unidad?.message}
            ayuda={avisoUnidades}
            aria-busy={estadoUnidades === 'cargando' || undefined}
            vacio={VACIO}
            opciones={unidades}
          />
        </div>
      </div>

      {areaElegida !== VACIO && nivelElegido !== VACIO && (
        <p className="enlace-sin-materiales">
          <a href={hrefSinMateriales(areaElegida, nivelElegido)}>Ver OAs sin materiales</a>
        </p>
      )}

      <ListasOA
        disponibles={disponibles}
        sinMateriales={sinMateriales}
        seleccionados={oas.value}
        aviso={avisoOas}
        onAgregar={(oa) => cambiarOas([...getValues('oas'), oa].sort(porCodigo))}
        onQuitar={(oa) => cambiarOas(getValues('oas').filter((o) => o.id !== oa.id))}
        error={errors.oas?.message}
        disabled={ocupado}
        ref={oas.ref}
      />

      <Campo
        id="titulo"
        etiqueta="Título"
        autoComplete="off"
        defaultValue={inicial.titulo}
        registro={titulo}
        error={errors.titulo?.message}
      />
      <Campo id="autor" etiqueta="Autor" value={autor} readOnly />
      <EditorMarkdown
        id="descripcion-material"
        etiqueta="Descripción"
        {...descripcion}
        maxLength={1000}
        filas={8}
        error={errors.descripcion?.message}
        ayuda="Para qué curso es, cuánto dura la actividad y cómo la usaste. Puedes dar formato con la barra."
      />
      <Selector
        id="tipo_material_docente"
        etiqueta="Tipo de material"
        defaultValue={inicial.tipo_material_docente}
        registro={tipo}
        error={errors.tipo_material_docente?.message}
        vacio={VACIO}
        opciones={tipos}
      />
      <CamposPublicacion register={register} trigger={trigger} inicial={inicial} errores={errors} />
      {reglasArchivo && (
        <ZonaArchivo
          id="archivo"
          etiqueta="Archivo"
          accept={reglasArchivo.accept}
          archivo={documento.archivo}
          onArchivo={documento.elegir}
          error={documento.error}
          subida={tus}
          ayuda={reglasArchivo.ayuda}
          disabled={ocupado}
        />
      )}

      <PieSubida
        hidratado={hidratado}
        ocupado={ocupado}
        enviando={isSubmitting}
        cancelar={material ? `/biblioteca-docente/${material.id}` : '/biblioteca-docente/'}
        progreso={progreso}
        texto={(p) => (editando ? 'Subiendo cambios…' : `Subiendo material… ${p}%`)}
        conArchivo={!editando}
      />
    </form>
  );
}

/**
 * Upload (/biblioteca-docente/subir) and edit (/biblioteca-docente/editar/{id}) a teacher material
 * (SPEC.md sections 2, 4, 5, 7 and 8). The curriculum cascade: changing the level or the area
 * clears the unit and the selected OAs and reloads the units; choosing a unit lists its OAs as
 * available, and OAs already selected stay selected (a material may serve OAs of several units,
 * decision 0012). The file is checked in the browser (extension, size) and again by the server
 * (its bytes). Uploading shows the real percentage sent; the server's field messages land on
 * their fields.
 */
import { useRef, useState } from 'react';
import { extensionDe, validarArchivoMaterial } from '../../lib/validation/archivos';
import { Campo, Selector, useHidratado } from '../comun/Campo';
import { EditorMarkdown } from '../comun/EditorMarkdown';
import { useFormulario } from '../comun/formulario';
import { useArchivo, useSubida } from '../comun/formularioSubida';
import { MENSAJES } from '../comun/mensajes';
import { PieSubida } from '../comun/PieSubida';
import { ZonaArchivo } from '../comun/ZonaArchivo';
import { type OA, oasDe, type Unidad, unidadesDe } from './curriculo';
import { ListasOA } from './ListasOA';

const reglas = () => import('./reglas');
const VACIO = '-1';

export interface FormularioMaterialProps {
  niveles: { codigo: string; nombre: string }[];
  areas: { id: number; nombre: string }[];
  tipos: { id: number; nombre: string }[];
  /** The author's name, shown read-only (the person uploading, or the material's author). */
  autor: string;
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
}

/** The curriculum choices: they change together, so they live apart from the hook's values. */
interface Cascada {
  id_nivel: string;
  id_area: string;
  id_unidad: string;
  seleccionados: OA[];
}

type Estado = 'espera' | 'cargando' | 'error' | 'listo';

const porCodigo = (a: OA, b: OA) => a.codigo.localeCompare(b.codigo, 'es');

export default function FormularioMaterial({ niveles, areas, tipos, autor, archivo: reglasArchivo, material }: FormularioMaterialProps) {
  const hidratado = useHidratado();
  const editando = material !== undefined;
  const inicial: Cascada = {
    id_nivel: material?.id_nivel ?? VACIO,
    id_area: String(material?.id_area ?? VACIO),
    id_unidad: String(material?.id_unidad ?? VACIO),
    seleccionados: material?.oas ?? [],
  };
  const [cascada, setCascada] = useState(inicial);
  const actual = useRef(inicial);
  const [unidades, setUnidades] = useState<Unidad[]>(material?.unidades ?? []);
  const [estadoUnidades, setEstadoUnidades] = useState<Estado>(editando ? 'listo' : 'espera');
  const [oasUnidad, setOasUnidad] = useState<OA[]>(material?.oasUnidad ?? []);
  const [estadoOas, setEstadoOas] = useState<Estado>(editando ? 'listo' : 'espera');
  const turno = useRef(0);

  const form = useFormulario({
    campos: ['id_nivel', 'id_area', 'id_unidad', 'oas', 'titulo', 'descripcion', 'tipo_material_docente'],
    // The curriculum fields are here only to be named; their values come from `cascada`.
    inicial: {
      id_nivel: '',
      id_area: '',
      id_unidad: '',
      oas: [] as number[],
      titulo: material?.titulo ?? '',
      descripcion: material?.descripcion ?? '',
      tipo_material_docente: String(material?.tipo_material_docente ?? VACIO),
    },
    esquema: () =>
      reglas().then((m) =>
        m.esquemaMaterial(() => {
          const { seleccionados, ...resto } = actual.current;
          return { ...resto, oas: seleccionados.map((o) => o.id) };
        }),
      ),
    ids: { descripcion: 'descripcion-material' },
  });
  const documento = useArchivo((elegido) => {
    if (reglasArchivo && elegido && elegido.size > reglasArchivo.limiteBytes) {
      return `El archivo supera el tamaño máximo permitido (${Math.floor(reglasArchivo.limiteBytes / 1024 / 1024)} MB)`;
    }
    return validarArchivoMaterial(elegido);
  });
  const { progreso, listo, enviar } = useSubida(form.ponerErrores, documento.ponerError);

  function fijar(cambio: Partial<Cascada>, campo: 'id_nivel' | 'id_area' | 'id_unidad' | 'oas') {
    actual.current = { ...actual.current, ...cambio };
    setCascada(actual.current);
    form.tocar(campo);
  }

  async function cargarUnidades(nivel: string, area: string) {
    const mio = ++turno.current;
    setUnidades([]);
    setOasUnidad([]);
    setEstadoOas('espera');
    if (nivel === VACIO || area === VACIO) return setEstadoUnidades('espera');
    setEstadoUnidades('cargando');
    const lista = await unidadesDe(Number(area), nivel);
    if (mio !== turno.current) return;
    setUnidades(lista ?? []);
    setEstadoUnidades(lista ? 'listo' : 'error');
  }

  async function cargarOas(unidad: string) {
    const mio = ++turno.current;
    setOasUnidad([]);
    if (unidad === VACIO) return setEstadoOas('espera');
    setEstadoOas('cargando');
    const lista = await oasDe(Number(unidad));
    if (mio !== turno.current) return;
    setOasUnidad(lista ?? []);
    setEstadoOas(lista ? 'listo' : 'error');
  }

  /** SPEC.md section 4: a new level or area clears the unit and the selected OAs. */
  function cambiarNivelOArea(campo: 'id_nivel' | 'id_area', valor: string) {
    fijar({ [campo]: valor, id_unidad: VACIO, seleccionados: [] }, campo);
    void cargarUnidades(actual.current.id_nivel, actual.current.id_area);
  }

  function cambiarUnidad(valor: string) {
    fijar({ id_unidad: valor }, 'id_unidad');
    void cargarOas(valor);
  }

  const guardar = form.enviar(
    async (valores) => {
      const c = actual.current;
      const titulo = valores.titulo.trim();
      const datos = new FormData();
      if (material) datos.set('id', String(material.id));
      datos.set('titulo', titulo);
      datos.set('descripcion', valores.descripcion.trim());
      // Upload: the file's extension (already checked); edit: the material's own.
      datos.set('extension', documento.archivo ? (extensionDe(documento.archivo.name) ?? '') : (material?.extension ?? ''));
      datos.set('id_area', c.id_area);
      datos.set('id_nivel', c.id_nivel);
      datos.set('id_unidad', c.id_unidad);
      for (const oa of c.seleccionados) datos.append('oas', String(oa.id));
      datos.set('tipo_material_docente', valores.tipo_material_docente);
      // The file goes last: the server reads the fields before the bytes arrive.
      if (documento.archivo && !material) datos.set('archivo', documento.archivo);

      await enviar({
        metodo: material ? 'PUT' : 'POST',
        url: '/api/bdocente/',
        datos,
        exito: material ? MENSAJES.material.editado(titulo) : MENSAJES.material.agregado(titulo),
        fallo: material ? MENSAJES.material.noEditado : MENSAJES.material.noSubido,
        destino: material ? `/biblioteca-docente/${material.id}` : '/biblioteca-docente/',
      });
    },
    editando ? undefined : documento.valido,
  );

  const elegidos = new Set(cascada.seleccionados.map((o) => o.id));
  const disponibles = oasUnidad.filter((o) => !elegidos.has(o.id));
  const avisoUnidades = {
    espera: 'Elige primero el nivel y el área.',
    cargando: 'Cargando unidades…',
    error: 'No se pudieron cargar las unidades. Vuelve a elegir el nivel o el área.',
    listo: unidades.length === 0 ? 'No hay unidades para este nivel y área.' : undefined,
  }[estadoUnidades];
  const avisoOas = {
    espera: 'Elige una unidad para ver sus OA.',
    cargando: 'Cargando OA…',
    error: 'No se pudieron cargar los OA. Vuelve a elegir la unidad.',
    listo: oasUnidad.length === 0 ? 'La unidad no tiene OA.' : null,
  }[estadoOas];
  const ocupado = form.enviando || listo;

  return (
    <form
      className="formulario-contenido formulario-material"
      method="post"
      noValidate
      onSubmit={guardar}
      onFocus={form.precargar}
      aria-label={editando ? 'Editar material' : 'Subir material'}
    >
      <div className="fila">
        <div>
          <Selector
            id="id_nivel"
            etiqueta="Nivel"
            value={cascada.id_nivel}
            onChange={(e) => cambiarNivelOArea('id_nivel', e.target.value)}
            error={form.errores.id_nivel}
          >
            <option value={VACIO}>Seleccionar</option>
            {niveles.map((n) => (
              <option key={n.codigo} value={n.codigo}>
                {n.nombre}
              </option>
            ))}
          </Selector>
        </div>
        <div>
          <Selector
            id="id_area"
            etiqueta="Área"
            value={cascada.id_area}
            onChange={(e) => cambiarNivelOArea('id_area', e.target.value)}
            error={form.errores.id_area}
          >
            <option value={VACIO}>Seleccionar</option>
            {areas.map((a) => (
              <option key={a.id} value={a.id}>
                {a.nombre}
              </option>
            ))}
          </Selector>
        </div>
        <div>
          <Selector
            id="id_unidad"
            etiqueta="Unidad"
            value={cascada.id_unidad}
            onChange={(e) => cambiarUnidad(e.target.value)}
            error={form.errores.id_unidad}
            ayuda={avisoUnidades}
            aria-busy={estadoUnidades === 'cargando' || undefined}
          >
            <option value={VACIO}>Seleccionar</option>
            {unidades.map((u) => (
              <option key={u.id} value={u.id}>
                {u.nombre}
              </option>
            ))}
          </Selector>
        </div>
      </div>

      <ListasOA
        disponibles={disponibles}
        seleccionados={cascada.seleccionados}
        aviso={avisoOas}
        onAgregar={(oa) => fijar({ seleccionados: [...actual.current.seleccionados, oa].sort(porCodigo) }, 'oas')}
        onQuitar={(oa) => fijar({ seleccionados: actual.current.seleccionados.filter((o) => o.id !== oa.id) }, 'oas')}
        error={form.errores.oas}
        disabled={ocupado}
      />

      <Campo id="titulo" etiqueta="Título" autoComplete="off" {...form.campo('titulo')} />
      <Campo id="autor" etiqueta="Autor" value={autor} readOnly />
      <EditorMarkdown
        id="descripcion-material"
        etiqueta="Descripción"
        value={form.valores.descripcion}
        onChange={(valor) => form.cambiar('descripcion', valor)}
        onBlur={() => form.tocar('descripcion')}
        maxLength={1000}
        filas={8}
        error={form.errores.descripcion}
        ayuda="Para qué curso es, cuánto dura la actividad y cómo la usaste. Puedes dar formato con la barra."
      />
      <Selector
        id="tipo_material_docente"
        etiqueta="Tipo de material"
        value={form.valores.tipo_material_docente}
        onChange={(e) => {
          form.cambiar('tipo_material_docente', e.target.value);
          form.tocar('tipo_material_docente');
        }}
        error={form.errores.tipo_material_docente}
      >
        <option value={VACIO}>Seleccionar</option>
        {tipos.map((t) => (
          <option key={t.id} value={t.id}>
            {t.nombre}
          </option>
        ))}
      </Selector>
      {reglasArchivo && (
        <ZonaArchivo
          id="archivo"
          etiqueta="Archivo"
          accept={reglasArchivo.accept}
          archivo={documento.archivo}
          onArchivo={documento.elegir}
          error={documento.error}
          ayuda={reglasArchivo.ayuda}
          disabled={ocupado}
        />
      )}

      <PieSubida
        hidratado={hidratado}
        ocupado={ocupado}
        enviando={form.enviando}
        cancelar={material ? `/biblioteca-docente/${material.id}` : '/biblioteca-docente/'}
        progreso={progreso}
        texto={(p) => (editando ? 'Subiendo cambios…' : `Subiendo material… ${p}%`)}
        conArchivo={!editando}
      />
    </form>
  );
}

/**
 * The one Markdown editor of the product (docs/DESIGN.md: rich text is Markdown written in
 * @uiw/react-md-editor, loaded only in editing islands). The editor arrives in its own chunk after
 * the island is live; until then, and on the server, the field is a plain labelled textarea with
 * the same value, so a person can start typing at once and keeps focus and text when the toolbar
 * appears. The toolbar speaks Spanish, Tab leaves the field (no keyboard trap) and the preview
 * shows no images: posts and descriptions keep to text and links (the server renders images as
 * links too).
 *
 * Usage: <EditorMarkdown id="contenido" etiqueta="Contenido" value={v} onChange={setV}
 *          maxLength={3000} filas={12} error={mensaje} />
 */
import estilosEditor from '@uiw/react-md-editor/markdown-editor.css?url';
import {
  type ComponentType,
  type CSSProperties,
  lazy,
  type ReactElement,
  type Ref,
  Suspense,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
} from 'react';
import { Ayuda, descripcion, Mensaje, useHidratado } from './Campo';

export interface EditorMarkdownProps {
  /** The textarea's id: the label points at it and tests find the field by its label. */
  id: string;
  etiqueta: string;
  value: string;
  onChange: (valor: string) => void;
  onBlur?: () => void;
  /** Shown as a counter under the field ('120 / 3000'); the form's schema reports the excess. */
  maxLength?: number;
  /** Visible lines of text (like a textarea's rows). */
  filas?: number;
  /** The field's message; marks it invalid and is read with it. */
  error?: string | undefined;
  /** A hint read with the field. */
  ayuda?: string;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  /** Focuses the field, whichever of the two is showing (a form moves focus to a wrong field). */
  ref?: Ref<{ focus: () => void }>;
}

interface Campo {
  id: string;
  value: string;
  onChange: (valor: string) => void;
  onBlur?: (() => void) | undefined;
  placeholder?: string | undefined;
  disabled?: boolean | undefined;
  required?: boolean | undefined;
  alto: number;
  aria: ReturnType<typeof descripcion>;
  /** Whether the plain field has focus now: when the editor arrives, focus and caret carry over. */
  conFoco: () => boolean;
}

const LINEA_PX = 24;
const BARRA_PX = 38;

/** Links the preview may follow: the same rule as the server's renderer (no javascript:, data:). */
const urlSegura = (url: string) => (/^(https?:|mailto:|#|\/(?!\/))/i.test(url.trim()) ? url : '');

/**
 * The editor's stylesheet travels with it, not with the page (a bundler drops CSS imported by a
 * lazy module): it is added when the editor loads, and the editor shows once it applies. The
 * preview keeps the page's own typography, like the published text.
 */
function cargarEstilos(): Promise<void> {
  if (document.querySelector('link[data-editor-markdown]')) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = estilosEditor;
    link.dataset.editorMarkdown = '';
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => resolve());
    document.head.append(link);
  });
}

/** The editor module, with the toolbar in Spanish. Loaded once, on the first editor that mounts. */
const EditorCompleto = lazy(async (): Promise<{ default: ComponentType<Campo> }> => {
  const [{ default: MDEditor, commands }] = await Promise.all([import('@uiw/react-md-editor/nohighlight'), cargarEstilos()]);
  // Spanish names for the buttons; their icons are decoration (the name is what is read).
  const es = <T extends { buttonProps?: object | null; icon?: ReactElement }>(comando: T, etiqueta: string, icono = comando.icon): T => ({
    ...comando,
    icon: (
      <span aria-hidden="true" style={{ display: 'contents' }}>
        {icono}
      </span>
    ),
    buttonProps: { ...comando.buttonProps, 'aria-label': etiqueta, title: etiqueta },
  });
  // The heading buttons' faces are the words 'Heading 1' and 'Heading 2': ours draw T1 and T2.
  const titulo = (numero: string) => (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d={`M2 4h10M7 4v12${numero}`} />
    </svg>
  );
  const barra = [
    es(commands.bold, 'Negrita (Ctrl + B)'),
    es(commands.italic, 'Cursiva (Ctrl + I)'),
    es(commands.strikethrough, 'Tachado (Ctrl + Shift + X)'),
    commands.divider,
    es(commands.title1, 'Título 1 (Ctrl + 1)', titulo('M14 9.5l2.5-1.5V16')),
    es(commands.title2, 'Título 2 (Ctrl + 2)', titulo('M14 9.5a2.2 2.2 0 1 1 3.3 2L14 16h5')),
    commands.divider,
    es(commands.unorderedListCommand, 'Lista (Ctrl + Shift + U)'),
    es(commands.orderedListCommand, 'Lista numerada (Ctrl + Shift + O)'),
    es(commands.quote, 'Cita (Ctrl + Q)'),
    es(commands.link, 'Enlace (Ctrl + L)'),
  ];
  const modos = [
    es(commands.codeEdit, 'Solo escribir (Ctrl + 7)'),
    es(commands.codeLive, 'Escribir y ver (Ctrl + 8)'),
    es(commands.codePreview, 'Vista previa (Ctrl + 9)'),
  ];

  function Editor({ id, value, onChange, onBlur, placeholder, disabled, required, alto, aria, conFoco }: Campo) {
    // biome-ignore lint/correctness/useExhaustiveDependencies: only when the editor replaces the plain field
    useEffect(() => {
      const campo = document.getElementById(id);
      if (!conFoco() || !(campo instanceof HTMLTextAreaElement)) return;
      campo.focus();
      campo.setSelectionRange(campo.value.length, campo.value.length);
    }, []);
    return (
      <div data-color-mode="light" className="editor-markdown">
        <MDEditor
          value={value}
          onChange={(v) => onChange(v ?? '')}
          commands={barra}
          extraCommands={modos}
          preview="edit"
          height={alto + BARRA_PX}
          visibleDragbar={false}
          textareaProps={{ id, placeholder, disabled, required, onBlur, ...aria }}
          previewOptions={{
            urlTransform: urlSegura,
            allowElement: (element) => element.tagName !== 'img' && /^[A-Za-z0-9]+$/.test(element.tagName),
          }}
        />
      </div>
    );
  }
  return { default: Editor };
});

export function EditorMarkdown({
  id,
  etiqueta,
  value,
  onChange,
  onBlur,
  maxLength,
  filas = 10,
  error,
  ayuda,
  placeholder,
  disabled,
  required,
  ref,
}: EditorMarkdownProps) {
  // The editor never renders on the server: the page ships the plain field, the chunk comes after.
  const montado = useHidratado();
  const foco = useRef(false);
  const conFoco = useCallback(() => foco.current, []);
  // One handle for the field's life: react-hook-form takes a new one as a new field and sets it again.
  const manija = useMemo(() => ({ focus: () => document.getElementById(id)?.focus() }), [id]);
  useImperativeHandle(ref, () => manija, [manija]);

  const aria = descripcion({ id, error, ayuda });
  const alto = filas * LINEA_PX;
  const simple = (
    <textarea
      id={id}
      value={value}
      rows={filas}
      placeholder={placeholder}
      disabled={disabled}
      required={required}
      className="editor-simple"
      style={{ '--alto-editor': `${alto + BARRA_PX}px` } as CSSProperties}
      onChange={(e) => onChange(e.target.value)}
      onFocus={() => {
        foco.current = true;
      }}
      onBlur={() => {
        foco.current = false;
        onBlur?.();
      }}
      {...aria}
    />
  );
  const largo = Array.from(value).length;

  return (
    <>
      <label htmlFor={id}>{etiqueta}</label>
      {montado ? (
        <Suspense fallback={simple}>
          <EditorCompleto
            id={id}
            value={value}
            onChange={onChange}
            onBlur={onBlur}
            placeholder={placeholder}
            disabled={disabled}
            required={required}
            alto={alto}
            aria={aria}
            conFoco={conFoco}
          />
        </Suspense>
      ) : (
        simple
      )}
      {maxLength !== undefined && (
        <small className={largo > maxLength ? 'contador-caracteres excedido' : 'contador-caracteres'} aria-hidden="true">
          {largo} / {maxLength}
        </small>
      )}
      <Ayuda id={id} ayuda={ayuda} />
      <Mensaje id={id} error={error} className="error-campo" />
    </>
  );
}

/**
 * A form field that is not an input of its own (the Markdown editor, the OA lists), bound to
 * react-hook-form through `register`, so it is checked like the inputs (from its first blur on,
 * then as it changes) and gets focus when it is the first wrong field. Not `Controller`: its
 * 1.4 kB gzip would land in the chunk every form page loads, the account pages' included.
 */
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

export function campoPropio<V extends FieldValues, N extends Path<V>>(
  { register, watch, getValues }: Pick<UseFormReturn<V>, 'register' | 'watch' | 'getValues'>,
  nombre: N,
) {
  const { name, onChange, onBlur, ref } = register(nombre);
  // The events react-hook-form reads from an input: a target with the field's name and value.
  const evento = (type: 'change' | 'blur', value: PathValue<V, N>) => ({ type, target: { name, value } });
  return {
    value: watch(nombre),
    ref,
    onChange: (valor: PathValue<V, N>) => void onChange(evento('change', valor)),
    onBlur: () => void onBlur(evento('blur', getValues(nombre))),
  };
}

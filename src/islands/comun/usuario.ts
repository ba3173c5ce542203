/**
 * The signed-in user as the content islands act for them, read from the session store rather than
 * from the page, so a sign-out in another tab stops the actions at once.
 *
 * No server fallback is needed: the islands only send the user's id in their calls, they draw
 * nothing of the user. On the server the store is still loading, so the user is missing and the
 * actions render disabled — as they would anyway until the island is live — and hydration, which
 * reads the store already filled from the shell's JSON, renders the same disabled HTML.
 */
import { useStore } from '@nanostores/react';
import { $sesion, type UsuarioSesion } from '../../lib/stores/session';
import { useHidratado } from './Campo';

/** The user once the island is live and while the session lasts; undefined before and after. */
export function useUsuarioActivo(): UsuarioSesion | undefined {
  const hidratado = useHidratado();
  const { estado, usuario } = useStore($sesion);
  return hidratado && estado === 'autenticado' ? usuario : undefined;
}

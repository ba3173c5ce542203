/**
 * Sign-in with a school account (issue 32, decision 0063): the codes the OpenID Connect callback
 * sends back to /ingresar/ (or /perfil/cuentas-vinculadas) as `?error_oidc=`, and the Spanish
 * sentence each one shows. Only these codes are ever shown: the page never prints text from the URL.
 */
export const MENSAJES_OIDC = {
  proveedor: 'Esa forma de ingresar no está disponible en esta red.',
  no_disponible: 'No pudimos comunicarnos con el proveedor de tu cuenta. Inténtalo en unos minutos o ingresa con tu contraseña.',
  estado: 'No pudimos confirmar que este ingreso lo empezaste tú en este navegador. Vuelve a intentarlo con el botón.',
  usado: 'Este ingreso ya se usó. Si quieres entrar, vuelve a intentarlo con el botón.',
  vencido: 'El ingreso tardó demasiado o su código ya no vale. Vuelve a intentarlo con el botón.',
  cancelado: 'El proveedor no confirmó tu identidad (quizás cancelaste). Vuelve a intentarlo o ingresa con tu contraseña.',
  no_verificado: 'Tu proveedor no confirma que tu correo esté verificado, así que no podemos usarlo para ingresar.',
  dominio: 'Ese correo no es de un dominio autorizado para ingresar con este proveedor. Usa la cuenta de tu colegio.',
  sin_cuenta: 'No hay una cuenta de Entre Docentes con ese correo. Pide a quien administra la red que te invite.',
  cuenta_inactiva: 'Esta cuenta no puede ingresar: está desactivada o fue eliminada. Escribe a quien administra la red.',
  ya_vinculada: 'Esa cuenta del proveedor ya está vinculada a otra persona de la red.',
  sin_sesion: 'Ingresa a tu cuenta antes de vincular otra forma de ingresar.',
} as const;

export type CodigoOidc = keyof typeof MENSAJES_OIDC;

/** The sentence of a code from the URL, or null for anything else. */
export function mensajeOidc(codigo: string | null | undefined): string | null {
  return codigo && Object.hasOwn(MENSAJES_OIDC, codigo) ? MENSAJES_OIDC[codigo as CodigoOidc] : null;
}

/** The button's words for a provider. */
export const etiquetaProveedor = (nombre: string) => `Ingresar con ${nombre}`;

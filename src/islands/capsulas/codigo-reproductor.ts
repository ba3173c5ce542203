/**
 * The capsule player's video half, one of the two lazy chunks the loader (reproductor.ts) imports
 * side by side: the hold on element definitions (definiciones.ts), hls-video-element with hls.js's
 * light build (astro.config.mjs) and the data saver's switch. The controls are the other chunk
 * (controles-reproductor.ts): each chunk's evaluation is a task of its own, where one chunk of
 * both was a single task the length of both (Lighthouse's TBT, decision 0086). `npm run budgets`
 * holds both chunks and what they import to the player's budget.
 */
import './definiciones.ts';

export { Hls } from 'hls-video-element';
export { aplicarTope, iniciarInterruptor, mostrarCostes } from './ahorro-reproductor.ts';
export { definirPorPartes } from './definiciones.ts';

/**
 * The capsule player's controls, the second lazy chunk the loader (reproductor.ts) imports beside
 * codigo-reproductor.ts: first the hold on element definitions (definiciones.ts, shared by both
 * chunks, so it runs before either defines anything), the Spanish labels, then only the
 * media-chrome elements Reproductor.astro uses (the package's index defines every element it has:
 * cast, AirPlay, captions, previews…).
 */
import './definiciones.ts';
import './idioma-reproductor.ts';
import 'media-chrome/media-controller.js';
import 'media-chrome/media-control-bar.js';
import 'media-chrome/media-loading-indicator.js';
import 'media-chrome/media-play-button.js';
import 'media-chrome/media-seek-backward-button.js';
import 'media-chrome/media-seek-forward-button.js';
import 'media-chrome/media-time-display.js';
import 'media-chrome/media-time-range.js';
import 'media-chrome/media-mute-button.js';
import 'media-chrome/media-volume-range.js';
import 'media-chrome/media-fullscreen-button.js';
// The menus' items: the menus name the element without importing it, and without it no item
// can be picked (issue 20 found the rate and quality menus inert).
import 'media-chrome/menu/media-chrome-menu-item.js';
import 'media-chrome/menu/media-playback-rate-menu.js';
import 'media-chrome/menu/media-playback-rate-menu-button.js';
import 'media-chrome/menu/media-rendition-menu.js';
import 'media-chrome/menu/media-rendition-menu-button.js';
// Captions (issue 20): Reproductor.astro puts them in only when the capsule has some.
import 'media-chrome/menu/media-captions-menu.js';
import 'media-chrome/menu/media-captions-menu-button.js';

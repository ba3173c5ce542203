/**
 * Spanish for the player's controls, registered and chosen before any control module runs: some
 * controls (the quality button) read their labels once, when defined, and never again.
 * Imported by controles-reproductor.ts before any control (ES modules run in import order).
 */
import { Es } from 'media-chrome/lang/es';
import { addTranslation, setLanguage } from 'media-chrome/utils/i18n';

// A control's name must contain the text it shows (WCAG 2.5.3): the rate button shows '1.5x'.
addTranslation('es', { ...Es, 'Playback rate {playbackRate}': 'Velocidad de reproducción {playbackRate}x' });
setLanguage('es');

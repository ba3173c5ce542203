/** The flag drawn beside every 'Denunciar' (the page's button and the comments' buttons alike). */
export const BANDERA = 'M5 21V4M5 4h12l-2.5 4 2.5 4H5';

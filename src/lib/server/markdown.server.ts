/**
 * Rich text is Markdown written in the editor; the server renders it to HTML that is safe to put
 * in a page: raw HTML is escaped and only safe link protocols survive (micromark's defaults), so
 * read-only views ship no Markdown code to the browser.
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export function renderMarkdown(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

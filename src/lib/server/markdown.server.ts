/**
 * Rich text is Markdown written in the editor; the server renders it to HTML that is safe to put
 * in a page: raw HTML is escaped and only safe link protocols survive (micromark's defaults), so
 * read-only views ship no Markdown code to the browser. Everything rendered is written by users:
 * images become links (nothing is uploaded with a text, and a picture from anywhere on the web
 * would cost slow connections and tell its host who reads the page), a link whose address was
 * unsafe (javascript:, data:) keeps only its text, and links carry rel="nofollow ugc noopener".
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export function renderMarkdown(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    .replace(
      /<img src="([^"]*)" alt="([^"]*)"(?: title="[^"]*")? \/>/g,
      (_, src: string, alt: string) => `<a href="${src}">${alt || src}</a>`,
    )
    .replace(/<a href="">([\s\S]*?)<\/a>/g, '$1')
    .replace(/<a href="/g, '<a rel="nofollow ugc noopener" href="');
}

/**
 * A conversation keeps only the sanitized HTML rendered from its author's Markdown, so editing it
 * starts from Markdown written back from that HTML: the subset `renderMarkdown` produces
 * (paragraphs, headings, emphasis, links, lists, quotes, code, line breaks). Anything else is
 * kept as its text.
 */
const ENTIDADES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const texto = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTIDADES[e] ?? e);

export function markdownDe(html: string): string {
  let md = html
    .replace(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g, (_, c: string) => `\n\`\`\`\n${c.replace(/\n$/, '')}\n\`\`\`\n\n`)
    .replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_, n: string, c: string) => `${'#'.repeat(Number(n))} ${c}\n\n`)
    .replace(/<(strong|b)>([\s\S]*?)<\/\1>/g, '**$2**')
    .replace(/<(em|i)>([\s\S]*?)<\/\1>/g, '*$2*')
    .replace(/<del>([\s\S]*?)<\/del>/g, '~~$1~~')
    .replace(/<code>([\s\S]*?)<\/code>/g, '`$1`')
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, '[$2]($1)')
    .replace(/<br\s*\/?>\n?/g, '  \n')
    .replace(/<hr\s*\/?>/g, '\n---\n\n')
    .replace(/<ol>([\s\S]*?)<\/ol>/g, (_, c: string) => {
      let n = 0;
      return `${c.replace(/>\s+</g, '><').replace(/<li>([\s\S]*?)<\/li>/g, (_m, i: string) => `${++n}. ${i.trim()}\n`)}\n`;
    })
    .replace(
      /<ul>([\s\S]*?)<\/ul>/g,
      (_, c: string) => `${c.replace(/>\s+</g, '><').replace(/<li>([\s\S]*?)<\/li>/g, (_m, i: string) => `- ${i.trim()}\n`)}\n`,
    )
    .replace(
      /<blockquote>([\s\S]*?)<\/blockquote>/g,
      (_, c: string) =>
        `${c
          .replace(/<\/?p>/g, '')
          .trim()
          .split('\n')
          .map((l) => `> ${l}`)
          .join('\n')}\n\n`,
    )
    .replace(/<p>([\s\S]*?)<\/p>/g, '$1\n\n')
    .replace(/<[^>]+>/g, '');
  md = texto(md);
  return md.replace(/\n{3,}/g, '\n\n').trim();
}

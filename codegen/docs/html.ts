/**
 * Escaping-by-default HTML templating. Every interpolated value is escaped unless it is already `Html`,
 * so text from the OpenRPC document can never inject markup into the portal.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Marks trusted markup (built by this generator, never document text) as safe to insert as is. */
export const raw = (markup: string): Html => new Html(markup);

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

/**
 * The document's prose uses a little Markdown: `code` spans and blank-line paragraphs. Render just that,
 * escaping first so the only markup in the output is ours.
 */
export function prose(text: string | undefined): Html {
  if (!text) return raw('');
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${inlineProse(p).value}</p>`);
  return raw(paragraphs.join('\n'));
}

/** One line of prose without the paragraph wrapper, for table cells and summaries. */
export function inlineProse(text: string | undefined): Html {
  if (!text) return raw('');
  return raw(escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>'));
}

/**
 * The portal's guides: hand-written Markdown in codegen/docs/guides/, rendered into the portal's layout as
 * docs/guides/<slug>.html. The list fixes their order in the navigation and on the front page.
 *
 * Markdown goes through `marked` (pinned): the guides use tables, nested lists and fenced code, and a
 * hand-rolled renderer for all of that would be more code to trust than a well-kept, dependency-free parser.
 * The sources are ours, so their inline HTML is trusted as it is.
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.js';

export interface Guide {
  readonly slug: string;
  /** Navigation label (short). */
  readonly label: string;
  /** One line for the front page (inline `code` allowed). */
  readonly summary: string;
}

export const GUIDES: readonly Guide[] = [
  {
    slug: 'getting-started',
    label: 'Getting started',
    summary: "A dev chain in a minute: curl, then ethers, viem, web3.js, Foundry's `cast` and the client package.",
  },
  {
    slug: 'client-sdk',
    label: 'Client SDK',
    summary: 'The typed client generated from `openrpc.json`: transports, batches, WebSocket subscriptions, errors.',
  },
  {
    slug: 'python-client',
    label: 'Python client',
    summary: 'The typed Python client from the same document: HTTP, asyncio, typed batches, WebSocket subscriptions.',
  },
  {
    slug: 'mcp',
    label: 'MCP for agents',
    summary: 'The agent protocol over `/mcp`: tools, resources and prompts with live node data.',
  },
  {
    slug: 'dev-chain',
    label: 'The dev chain',
    summary:
      "Anvil's methods and flags, fork mode and the shared fork cache, `console.log`, state files, `eth_simulateV1`.",
  },
  {
    slug: 'tracing',
    label: 'Tracing and indexing',
    summary:
      '`debug_trace*`, `trace_*`, `ots_*` and Otterscan, logs and subscriptions, and the limits that bound a trace.',
  },
  {
    slug: 'history',
    label: 'History and era1',
    summary: 'Import era1 files and RLP streams, export a chain, kept states and `db stats`.',
  },
  {
    slug: 'configuration',
    label: 'Configuration',
    summary: 'Flags, the TOML file and `SVC_NODE_*` variables; every setting with its default and range.',
  },
  {
    slug: 'security',
    label: 'Security',
    summary: 'What mordor and etc expose and refuse, authentication, CORS, and a node reachable from outside.',
  },
  {
    slug: 'operating',
    label: 'Operating',
    summary:
      'Operating svc-node safely: safe defaults, authentication, every limit and its error, reverse proxy and TLS.',
  },
  {
    slug: 'peering',
    label: 'Peering and the cluster',
    summary: 'devp2p peers, sync and the blacklist; a local 3-node cluster in one command.',
  },
  {
    slug: 'troubleshooting',
    label: 'Troubleshooting',
    summary: 'The errors people meet (datadir in use, another chain, a moved fork, `-32005`, …) and what to do.',
  },
  {
    slug: 'contributing',
    label: 'Developing svc-node',
    summary: 'How the node is built and tested, changing the API, benchmarks, conformance, the code layout.',
  },
];

export const guideHref = (root: string, slug: string): string => `${root}guides/${slug}.html`;

/** GitHub's heading anchors, so a link written for the Markdown source works on the page too. */
function anchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

export interface RenderedGuide {
  readonly title: string;
  readonly body: string;
}

/** Renders one guide; its first `# ` heading is the page title. */
export function renderGuide(markdown: string): RenderedGuide {
  let title: string | undefined;
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading): string {
        if (depth === 1 && title === undefined) title = text.replace(/`/g, '');
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${escapeHtml(anchor(text))}">${inner}</h${depth}>\n`;
      },
      code({ text, lang }: Tokens.Code): string {
        // The info string's first word is the language; the rest (e.g. "test") marks snippets the test suite runs.
        const [language = '', ...flags] = (lang ?? '').trim().split(/\s+/);
        const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
        const tested = flags.includes('test') ? ' data-tested=""' : '';
        return `<pre${tested}><code${cls}>${escapeHtml(text)}</code></pre>\n`;
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link): string | false {
        // Links between guides are written to the .md sources (so they work on GitHub); on the portal they go to the pages.
        const target = href.replace(
          /^(?:\.\/)?([a-z0-9-]+)\.md(#.*)?$/,
          (_m, slug: string, hash: string | undefined) => `${slug}.html${hash ?? ''}`,
        );
        const titleAttr = linkTitle ? ` title="${escapeHtml(linkTitle)}"` : '';
        return `<a href="${escapeHtml(target)}"${titleAttr}>${this.parser.parseInline(tokens)}</a>`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  if (title === undefined) throw new Error('a guide needs a "# Title" heading');
  return { title, body };
}

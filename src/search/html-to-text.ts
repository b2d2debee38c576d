// A page's readable text, without a DOM: enough to give a model what a person reads, not a
// faithful rendering. Scripts, styles and page furniture (navigation, header, footer, forms)
// go; blocks become lines; entities are decoded.

const droppedElements = [
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "iframe",
  "head",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "button",
  "select",
];

const blockElements =
  "address|article|blockquote|br|dd|div|dl|dt|figcaption|figure|h[1-6]|hr|li|main|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul";

const namedEntities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  middot: "·",
  bull: "•",
  eacute: "é",
  egrave: "è",
  agrave: "à",
  ccedil: "ç",
  uuml: "ü",
  ouml: "ö",
  auml: "ä",
  szlig: "ß",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const hex = body[1] === "x" || body[1] === "X";
      const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

/** Collapses runs of spaces inside lines and of blank lines between them. */
export function tidyText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The `<title>`, decoded and on one line; undefined when the page has none. */
export function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title =
    match?.[1] === undefined ? "" : decodeEntities(match[1]).replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
}

/**
 * The readable text of an HTML document. When the page marks its content (`<main>` or
 * `<article>`), only that is kept, since the rest is mostly navigation.
 */
export function htmlToText(html: string): string {
  let body = html.replace(/<!--[\s\S]*?-->/g, " ");
  for (const name of droppedElements) {
    body = body.replace(new RegExp(`<${name}\\b[^>]*>[\\s\\S]*?</${name}\\s*>`, "gi"), " ");
  }
  const main = /<(main|article)\b[^>]*>([\s\S]*)<\/\1\s*>/i.exec(body)?.[2];
  if (main !== undefined && main.replace(/<[^>]*>/g, "").trim() !== "") body = main;
  body = body
    .replace(new RegExp(`<\\/?(?:${blockElements})\\b[^>]*>`, "gi"), "\n")
    .replace(/<[^>]*>/g, "");
  return tidyText(decodeEntities(body));
}

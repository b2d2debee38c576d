import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * A model's text as the Markdown it is written in (the shipped personas ask for Markdown):
 * lists, emphasis, code, tables. No raw HTML: react-markdown drops it, so a model cannot inject
 * markup into the page.
 */
export function MarkdownText({ text }: { text: string }) {
  return (
    <div className="text markdown">
      <Markdown remarkPlugins={[remarkGfm]}>{text}</Markdown>
    </div>
  );
}

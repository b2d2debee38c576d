import { shown } from "../format.ts";

const PREVIEW_CHARS = 90;

/** A labelled value (tool input, output): a one-line preview that opens to the whole value. */
export function JsonBlock({ label, value }: { label: string; value: unknown }) {
  const text = shown(value);
  const preview = text.replace(/\s+/g, " ");
  return (
    <details className="json-block" data-label={label}>
      <summary>
        <span className="label">{label}</span>{" "}
        <code className="preview">
          {preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS)}…` : preview}
        </code>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

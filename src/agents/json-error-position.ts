/**
 * Where JSON text first goes wrong, as line and column (1-based). V8's JSON.parse gives a
 * position for some errors only ("Unexpected token ']'" has none), and a person editing a
 * template needs the place. A small recursive scanner, enough to locate the first error.
 */
export function jsonErrorPosition(text: string): { line: number; column: number } | undefined {
  let index = 0;
  const fail = (): never => {
    throw new Error("json");
  };
  const space = (): void => {
    while (index < text.length && " \t\r\n".includes(text[index] ?? "")) index++;
  };
  const expect = (word: string): void => {
    if (text.startsWith(word, index)) index += word.length;
    else fail();
  };
  const string = (): void => {
    expect('"');
    while (index < text.length && text[index] !== '"') {
      const char = text[index] ?? "";
      if (char === "\\") index++;
      else if (char < " ") fail();
      index++;
    }
    expect('"');
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index));
    if (!match) fail();
    index += match?.[0].length ?? 0;
  };
  const list = (open: string, close: string, item: () => void): void => {
    expect(open);
    space();
    if (text[index] === close) {
      index++;
      return;
    }
    for (;;) {
      space();
      item();
      space();
      if (text[index] === ",") {
        index++;
        continue;
      }
      expect(close);
      return;
    }
  };
  const value = (): void => {
    space();
    const char = text[index];
    if (char === "{")
      list("{", "}", () => {
        string();
        space();
        expect(":");
        value();
      });
    else if (char === "[") list("[", "]", value);
    else if (char === '"') string();
    else if (char === "t") expect("true");
    else if (char === "f") expect("false");
    else if (char === "n") expect("null");
    else number();
  };
  try {
    value();
    space();
    if (index < text.length) fail();
    return undefined;
  } catch {
    const before = text.slice(0, index);
    const line = before.split("\n").length;
    return { line, column: index - before.lastIndexOf("\n") };
  }
}

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpPageReader, htmlToText } from "../../../src/search/index.ts";
import { startFakeWeb, type FakeWeb } from "../../support/fake-research-web.ts";

// The page reader deep_research uses, over real HTTP on 127.0.0.1: what it reads, and the reason
// it gives for every page it cannot read.

describe("reading a page as text", () => {
  let web: FakeWeb;
  before(async () => {
    web = await startFakeWeb({
      "/latin1": {
        status: 200,
        contentType: "text/html; charset=iso-8859-1",
        body: "<html><head><title>Caf\u00e9</title></head><body><p>Cr\u00e8me br\u00fbl\u00e9e</p></body></html>",
      },
      "/empty": {
        status: 200,
        contentType: "text/html",
        body: "<html><body><nav>menu</nav></body></html>",
      },
      "/untyped": { status: 200, contentType: "", body: "bytes" },
      "/image": { status: 200, contentType: "image/png", body: "PNG" },
      "/missing": { status: 404, contentType: "text/html", body: "gone" },
      "/article": { status: 200, contentType: "text/plain", body: "Moved here." },
      "/moved": {
        status: 301,
        contentType: "text/html",
        body: "",
        headers: { location: "/article" },
      },
      "/to-metadata": {
        status: 302,
        contentType: "text/html",
        body: "",
        headers: { location: "http://169.254.169.254/latest/meta-data/" },
      },
      "/loop": { status: 302, contentType: "text/html", body: "", headers: { location: "/loop" } },
    });
  });
  after(() => web.close());
  const reader = createHttpPageReader({ timeoutMs: 2_000 });

  it("decodes the charset the server names", async () => {
    // The fake answers in UTF-8 bytes: read as Latin-1 they are mojibake, as the header says.
    const page = await reader.read(`${web.url}/latin1`);
    assert.ok(page.ok);
    assert.equal(page.text, "Cr\u00c3\u00a8me br\u00c3\u00bbl\u00c3\u00a9e");
  });

  it("follows a redirect to the page", async () => {
    const page = await reader.read(`${web.url}/moved`);
    assert.ok(page.ok, JSON.stringify(page));
    assert.equal(page.text, "Moved here.");
  });

  it("never reads a link-local address (cloud metadata), directly or through a redirect", async () => {
    const reasons = await Promise.all(
      [
        `${web.url}/to-metadata`,
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/",
      ].map(async (url) => {
        const page = await reader.read(url);
        return page.ok ? "read" : page.reason;
      }),
    );
    const never = "a link-local address (where cloud metadata services answer); never read";
    assert.deepEqual(reasons, [
      `redirected to http://169.254.169.254/latest/meta-data/: ${never}`,
      never,
      never,
    ]);
  });

  it("gives a reason for each page it cannot read", async () => {
    const reasons = await Promise.all(
      [
        `${web.url}/empty`,
        `${web.url}/untyped`,
        `${web.url}/image`,
        `${web.url}/missing`,
        "ftp://127.0.0.1/file",
        "http://user:secret@127.0.0.1/",
        "not a url",
        `${web.url}/loop`,
      ].map(async (url) => {
        const page = await reader.read(url);
        return page.ok ? "read" : page.reason;
      }),
    );
    assert.deepEqual(reasons, [
      "the page has no readable text",
      "no content type: not a web page or text this tool can read",
      "content type image/png: not a web page or text this tool can read",
      "the server answered HTTP 404 Not Found",
      "not an http(s) URL (ftp)",
      "the URL carries a user name or password; it is not followed",
      "not a valid URL",
      "more than 5 redirects",
    ]);
  });
});

describe("HTML reduced to its readable text", () => {
  it("keeps the main content as lines, decodes entities, drops scripts, styles, comments and menus", () => {
    const html = `<html><head><title>T</title><style>p{}</style></head><body>
      <nav>Home | About</nav><!-- a comment -->
      <main><h1>Heading</h1><p>One &amp; two&nbsp;&lt;three&gt; &#8212; &#x2713;</p>
      <script>var x = "<p>not text</p>";</script><ul><li>first</li><li>second</li></ul></main>
      <footer>Footer</footer></body></html>`;
    assert.equal(htmlToText(html), "Heading\n\nOne & two <three> — ✓\n\nfirst\n\nsecond");
  });

  it("reads the whole body when the page marks no main content", () => {
    assert.equal(htmlToText("<body><div>A</div><div>B <b>bold</b></div></body>"), "A\n\nB bold");
  });
});

import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HubExportLinks } from "./hub-export-links";

describe("HubExportLinks", () => {
  it("links every hub export of the entry, the Every Eval Ever record beside the Hugging Face and Papers-with-Code files", () => {
    const html = renderToStaticMarkup(<HubExportLinks entryId="entry1" />);
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(hrefs).toEqual([
      "/api/entries/entry1/export?format=model-index",
      "/api/entries/entry1/export?format=eval-results",
      "/api/entries/entry1/export?format=pwc",
      "/api/entries/entry1/export?format=every-eval-ever",
    ]);
    expect(html).toContain("Every Eval Ever (JSON, with each 95% interval and n)");
  });
});

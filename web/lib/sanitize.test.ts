import { describe, expect, it } from "vitest";
import { safeLinkHref } from "./sanitize";

describe("safeLinkHref", () => {
  it("keeps http(s) addresses and in-app paths", () => {
    expect(safeLinkHref("https://members.example.com/join?plan=basic")).toBe(
      "https://members.example.com/join?plan=basic",
    );
    expect(safeLinkHref("http://example.com")).toBe("http://example.com/");
    expect(safeLinkHref("/contact")).toBe("/contact");
  });

  it("refuses script and protocol-relative addresses", () => {
    expect(safeLinkHref("javascript:alert(1)")).toBeNull();
    expect(safeLinkHref(" JavaScript:alert(1)")).toBeNull();
    expect(safeLinkHref("data:text/html,hi")).toBeNull();
    expect(safeLinkHref("//evil.example")).toBeNull();
    expect(safeLinkHref("not a url")).toBeNull();
  });
});

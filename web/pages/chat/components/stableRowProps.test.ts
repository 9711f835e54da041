// A message row is rendered again only when its own row or a prop changed, never for another bubble's token.
import { describe, expect, it } from "vitest";
import { sameRowProps } from "./stableRowProps";

const entry = { chatHistoryUUID: "e1" };
const row = { key: "a:reply:0", text: "Hello", streaming: false, entry };
const onContinue = () => {};

describe("sameRowProps", () => {
  it("treats a rebuilt row with the same fields as the same bubble", () => {
    expect(sameRowProps({ row, chatId: "c", onContinue }, { row: { ...row }, chatId: "c", onContinue })).toBe(
      true,
    );
  });

  it("renders again when the row's text or streaming state changes", () => {
    expect(sameRowProps({ row }, { row: { ...row, text: "Hello there" } })).toBe(false);
    expect(sameRowProps({ row }, { row: { ...row, streaming: true } })).toBe(false);
    expect(sameRowProps({ row }, { row: { ...row, entry: { ...entry } } })).toBe(false);
  });

  it("renders again when another prop changes identity or appears", () => {
    expect(sameRowProps({ row, onContinue }, { row, onContinue: () => {} })).toBe(false);
    expect(sameRowProps({ row, chatId: "c" }, { row, chatId: "d" })).toBe(false);
    expect(sameRowProps({ row } as { row: object; chatId?: string }, { row, chatId: "c" })).toBe(false);
  });
});

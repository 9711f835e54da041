import { describe, expect, it, vi } from "vitest";
import { CONFIRM_PASSWORD_MISMATCH, RULES } from "../../common/validation";
import { formReady } from "./formChecks";

/** A form's required fields whose `validate` answers `filled`. */
const required = (filled: boolean) => ({ validate: vi.fn(() => filled) });

describe("formReady (product.md §5: required fields, then the server's rules, then matching passwords)", () => {
  it("stops at a blank required field and runs onBlank, warning nothing", () => {
    const warn = vi.fn();
    const onBlank = vi.fn();
    expect(formReady(required(false), [[RULES.email, "not an address"]], { warn, onBlank })).toBe(false);
    expect(onBlank).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it("warns the first broken rule's sentence", () => {
    const warn = vi.fn();
    expect(formReady(required(true), [[RULES.email, "not an address"]], { warn })).toBe(false);
    expect(warn).toHaveBeenCalledWith("The e-mail address is not valid.");
  });

  it("warns the mismatch sentence when the two passwords differ", () => {
    const warn = vi.fn();
    const match = { values: ["a-new-Secret-42", "another"], sentence: CONFIRM_PASSWORD_MISMATCH } as const;
    expect(formReady(required(true), [], { warn, match })).toBe(false);
    expect(warn).toHaveBeenCalledWith("New and Confirm password do not match.");
  });

  it("lets a filled, valid, matching form be sent", () => {
    const warn = vi.fn();
    const match = { values: ["same", "same"], sentence: CONFIRM_PASSWORD_MISMATCH } as const;
    expect(formReady(required(true), [[RULES.email, "ann@example.com"]], { warn, match })).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });
});

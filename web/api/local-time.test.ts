import { afterEach, describe, expect, it } from "vitest";
import { localIsoTime } from "./chat";

/** `chat/message` `time` (README "How the chat works"): the user's wall clock with its UTC offset. */
describe("localIsoTime", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  it("writes the wall-clock time and the offset of the browser's zone, naming the same instant", () => {
    const instant = new Date(Date.UTC(2026, 10, 26, 21, 41, 7, 5));
    process.env.TZ = "Asia/Kolkata";
    expect(localIsoTime(instant)).toBe("2026-11-27T03:11:07.005+05:30");
    process.env.TZ = "America/St_Johns";
    expect(localIsoTime(instant)).toBe("2026-11-26T18:11:07.005-03:30");
    process.env.TZ = "UTC";
    expect(localIsoTime(instant)).toBe("2026-11-26T21:41:07.005+00:00");
    for (const tz of ["Asia/Kolkata", "America/St_Johns", "Pacific/Kiritimati"]) {
      process.env.TZ = tz;
      expect(Date.parse(localIsoTime(instant))).toBe(instant.getTime());
    }
  });
});

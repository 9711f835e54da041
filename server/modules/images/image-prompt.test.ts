import { describe, expect, it } from "vitest";
import { PHOTO_CAPTIONS } from "../../../common/constants";
import {
  buildImagePrompt,
  describeRequest,
  detectPictureInReply,
  detectPictureRequest,
  seedFor,
} from "./image-prompt";

describe("image prompts", () => {
  it("a character's seed is fixed by its id and differs between characters", () => {
    const a = "5f8e0c1e-2b4d-4f5a-9c1e-0a1b2c3d4e5f";
    expect(seedFor(a)).toBe(seedFor(a));
    expect(seedFor(a)).not.toBe(seedFor("0b2c3d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d"));
    expect(seedFor(a)).toBeGreaterThanOrEqual(0);
    expect(seedFor(a)).toBeLessThan(2 ** 31);
  });

  it("draws the character's name, sex and appearance with the request; censored plans push explicit content away", () => {
    const subject = { id: "x", name: "Mia", sex: "0", appearance: "long red hair, green eyes" };
    const portrait = buildImagePrompt(subject, "at the beach", 1, false);
    expect(portrait.prompt).toContain("Mia, an adult woman");
    expect(portrait.prompt).toContain("long red hair, green eyes");
    expect(portrait.prompt).toContain("at the beach");
    expect(portrait.prompt).toContain("portrait");
    expect(portrait.negativePrompt).toContain("nsfw");
    const landscape = buildImagePrompt({ ...subject, sex: "1" }, "", 2, true);
    expect(landscape.prompt).toContain("an adult man");
    expect(landscape.prompt).toContain("wide shot");
    expect(landscape.negativePrompt).not.toContain("nsfw");
  });

  it("finds a request for a picture in the user's words", () => {
    expect(detectPictureRequest("Can you send me a picture of you at the beach?")).toEqual({
      description: "at the beach",
      type: 2,
    });
    expect(detectPictureRequest("send me a selfie")).toEqual({ description: "selfie", type: 1 });
    expect(detectPictureRequest("Could I see a photo of your new dress")).toEqual({
      description: "your new dress",
      type: 1,
    });
    expect(detectPictureRequest("I took a picture yesterday")).toBeUndefined();
    expect(detectPictureRequest("How was your day?")).toBeUndefined();
  });

  it("finds a picture the reply sends as an action", () => {
    expect(detectPictureInReply("Sure! *sends you a selfie from the beach* Like it?")).toEqual({
      description: "the beach",
      type: 2,
    });
    expect(detectPictureInReply("*takes a selfie and sends it*")).toEqual({ description: "selfie", type: 1 });
    expect(detectPictureInReply("I love taking pictures of birds.")).toBeUndefined();
    expect(detectPictureInReply("*smiles* Hello!")).toBeUndefined();
  });

  it("the menu's texts name only the framing; 'Send a photo of..' and captions name the scene", () => {
    expect(describeRequest("Send a portrait photo")).toBe("");
    expect(describeRequest("Send a landscape photo")).toBe("");
    expect(describeRequest("Send a photo of.. you in the rain")).toBe("you in the rain");
    expect(PHOTO_CAPTIONS).toHaveLength(10);
    expect(describeRequest(PHOTO_CAPTIONS[0]!.text)).toBe(PHOTO_CAPTIONS[0]!.text);
  });
});

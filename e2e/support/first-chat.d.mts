// Types of first-chat.mjs: a new user's first steps in the browser.
import type { Page } from "playwright-core";

/** On the preset selection: the first preset selected and confirmed; resolves on /characters/list. */
export function createFirstPreset(page: Page): Promise<void>;

/** On the character list: the first character's chat opened and the 18+ question answered yes. */
export function openFirstChat(page: Page): Promise<void>;

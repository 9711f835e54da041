// A new user's first steps in the browser, shared by the e2e tests and scripts/screenshot.mjs: a preset made, its chat opened.

/*
 * Plain JavaScript so that scripts/screenshot.mjs, run by node without tsx, imports the same
 * steps as the TypeScript tests; the types are in first-chat.d.mts.
 */

/**
 * On the preset selection (/characters/selection): opens the first preset, selects it and
 * confirms ('Yes, create her!' or 'him'). Resolves once the character list (/characters/list) is shown.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<void>}
 */
export async function createFirstPreset(page) {
  await page.getByRole("list", { name: "Preset characters" }).getByRole("button").first().click();
  await page.getByRole("button", { name: /^Select (her|him)$/ }).click();
  await page.getByRole("button", { name: /^Yes, create (her|him)!$/ }).click();
  await page.waitForURL("**/characters/list");
}

/**
 * On the character list: 'Start Chatting' with the first character, then yes to the
 * 'Are you 18 or older?' question the chat asks first. Resolves once that answer is clicked.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<void>}
 */
export async function openFirstChat(page) {
  await page.getByRole("link", { name: "Start Chatting" }).first().click();
  await page.waitForURL("**/chat");
  const gate = page.getByRole("dialog");
  await gate.getByRole("heading", { name: "Are you 18 or older?" }).waitFor();
  await gate.getByRole("button", { name: "Yes, I am 18 or older" }).click();
}

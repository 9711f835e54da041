import type { Browser, Page } from "playwright-core";
import type { CharacterListItem, LoginData } from "../common/api";
import { demoSession, openPage, storeSession } from "./support/browser";

/** Shared steps of the chat browser tests (e2e/chat-*.e2e.test.ts). */

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

/** A fresh demo user signed in on a new page of the given size. */
export async function signedInPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ page: Page; session: LoginData }> {
  const session = await demoSession(url);
  const page = await openPage(browser, { viewport });
  await page.goto(`${url}/maintenance`);
  await storeSession(page, session);
  return { page, session };
}

/** Calls the API from inside the page with the stored bearer token; returns the JSON body. */
export function callApi<T = Record<string, unknown>>(
  page: Page,
  method: "GET" | "POST" | "DELETE",
  path: string,
  form?: Record<string, string>,
): Promise<T> {
  return page.evaluate(
    async ({ method, path, form }) => {
      const token = JSON.parse(localStorage.getItem("token") ?? "{}").token as string;
      const answer = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}` },
        body: form ? new URLSearchParams(form) : undefined,
      });
      return answer.json();
    },
    { method, path, form },
  ) as Promise<T>;
}

/** The user's characters (GET /api/characters/list/chat). */
export async function chatCharacters(page: Page): Promise<CharacterListItem[]> {
  const answer = await callApi<{ characters: CharacterListItem[] }>(page, "GET", "/api/characters/list/chat");
  return answer.characters;
}

/** Creates random characters until the user has `count`. */
export async function ensureCharacters(page: Page, count: number): Promise<CharacterListItem[]> {
  let list = await chatCharacters(page);
  while (list.length < count) {
    const created = await callApi(page, "POST", "/api/characters/create-random");
    if (created.success !== 1) throw new Error(`create-random failed: ${String(created.message)}`);
    list = await chatCharacters(page);
  }
  return list;
}

/** Opens the chat of `id` (a character or a group) the way the app does, and waits for it. */
export async function openChat(page: Page, url: string, id: string): Promise<void> {
  await page.goto(`${url}/character-select/${id}`);
  await page.waitForURL("**/chat");
  await page.getByRole("log", { name: "Messages" }).waitFor();
}

/**
 * Removes the browser's own speech recognition from the page (Chromium has webkitSpeechRecognition
 * even headless): with no transcription endpoint on the server, the microphone is then off with
 * its reason. Applies from the next navigation.
 */
export async function withoutBrowserSpeech(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
  });
}

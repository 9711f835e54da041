// Reading a video's comments through the YouTube Data API v3, for the free subscription's check.
import { fetchWithTimeout, joinUrl } from "../http";

/**
 * Reads a video's comments through the YouTube Data API v3 `commentThreads.list`
 * (base URL configurable, so tests point it at a local server speaking the same JSON).
 */
export class YouTubeComments {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  get configured(): boolean {
    return Boolean(this.baseUrl && this.apiKey);
  }

  /**
   * Whether a top-level comment on the video contains `text` (case-insensitive). Reads at most
   * `maxPages` pages of 100 comments, newest first, searching with `searchTerms`.
   * @throws Error when the API answers an error (quota, bad key, unknown video); ProviderHttpError
   *   when it cannot be reached within 10 s.
   */
  async hasCommentContaining(videoId: string, text: string, maxPages = 5): Promise<boolean> {
    const needle = text.toLowerCase();
    let pageToken = "";
    for (let page = 0; page < maxPages; page++) {
      const url = new URL(joinUrl(this.baseUrl, "commentThreads"));
      url.searchParams.set("part", "snippet");
      url.searchParams.set("videoId", videoId);
      url.searchParams.set("maxResults", "100");
      url.searchParams.set("order", "time");
      url.searchParams.set("textFormat", "plainText");
      url.searchParams.set("searchTerms", text);
      url.searchParams.set("key", this.apiKey);
      if (pageToken) url.searchParams.set("pageToken", pageToken);
      const response = await fetchWithTimeout(url, { timeoutMs: 10_000 });
      const body = (await response.json().catch(() => ({}))) as {
        items?: Array<{
          snippet?: { topLevelComment?: { snippet?: { textOriginal?: string; textDisplay?: string } } };
        }>;
        nextPageToken?: string;
        error?: { message?: string };
      };
      if (!response.ok) throw new Error(`YouTube API ${response.status}: ${body.error?.message ?? "error"}`);
      for (const item of body.items ?? []) {
        const snippet = item.snippet?.topLevelComment?.snippet;
        const comment = `${snippet?.textOriginal ?? ""} ${snippet?.textDisplay ?? ""}`.toLowerCase();
        if (comment.includes(needle)) return true;
      }
      if (!body.nextPageToken) return false;
      pageToken = body.nextPageToken;
    }
    return false;
  }
}

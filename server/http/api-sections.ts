// The sections of docs/api.md's route tables, in order, with the note under each: a route's first tag names its section.

/** One section of the route tables: its heading (the routes' tag) and the note under its table. */
export interface ApiSection {
  name: string;
  note?: string;
}

/** The sections in the order docs/api.md shows them (server/http/api-reference.ts). */
export const API_SECTIONS: ReadonlyArray<ApiSection> = [
  { name: "Auth and accounts" },
  {
    name: "Users and profile",
    note: "Wherever a route takes the user's own id (`id`, `uid`, `uId`), another user's id answers 404.",
  },
  { name: "Characters" },
  {
    name: "Chat",
    note: `Chat sends refuse with \`age_unconfirmed\` before the 18+ confirmation, \`quota_reached\` at the
plan's quota, \`content_minors\` under the content rules and \`llm_unavailable\` while no model is
ready. A retry with the same \`clientMessageId\` never makes a second entry nor costs a second message.

The chat import (server/modules/chat/import.service.ts, the format in
server/modules/conversation/sillytavern.ts, shared with the data export) reads the whole file before
it writes anything, then replaces the history in one transaction: a refused file stores and deletes
nothing. Line 1 is the header; each message line \`{name, is_user, is_system, send_date, mes, extra,
swipes?, swipe_id?}\` becomes part of an entry: a user's message opens one, the character's message
right after it is its reply, a character's message with no user's message before it is an entry of
its own (\`##first-message##\`, as greetings), two user's messages in a row leave the first without a
reply. \`is_system\` lines and blank messages are left out, and so are pictures (\`extra.image\`): only
the words are imported. \`send_date\` may be SillyTavern's "May 8, 2023 1:56pm" or
"2023-05-08@13h56m00s" (read as UTC), ISO 8601 or epoch ms; an unreadable one is the import's time;
the file's order is kept even when dates go backwards. A reply's \`swipes\` and \`swipe_id\` become its
swipes (at most 10). Imported messages cost nothing and are not held to the 150 characters of typed
messages. Memory afterwards: the rolling summary starts 40 exchanges (at most 40 000 characters)
before the end and facts are drawn from the 36 newest user's messages, by the usual background jobs.`,
  },
  { name: "Groups" },
  {
    name: "Edits and swipes",
    note: `All take the entry's \`id\` (chatHistoryUUID); an entry that is not the user's answers 404. Contract
in common/api.ts above \`SwipeReply\`.`,
  },
  {
    name: "Memory and check-ins",
    note: `Reading a chat's newest history page (\`/api/chat/history\` or \`/api/chat/history/paginated\` at
offset 0) clears its unread check-ins.`,
  },
  { name: "Search" },
  {
    name: "Images and voice",
    note: `Plan flags gate these: \`plan_images\`, \`plan_photos\`, \`plan_uncensored\` (403);
\`images_unavailable\` (200, success 0) when no image engine is configured.`,
  },
  { name: "Payments and free subscription" },
  { name: "Account export and erase" },
  {
    name: "Admin",
    note: `Every route under \`/api/admin\` needs the admin role (no session: 401; not an admin: 403
\`not_admin\`). All are ours; product.md §7 "Ours, beyond the definition" lists the accounts and
invitations routes, and §2 describes the admin console.`,
  },
  {
    name: "Admin: model connections",
    note: `Admin only, JSON or form bodies; answers never carry an API key. Shapes in
common/models-api.ts, schemas in server/modules/models/models.schemas.ts. Listed in product.md §7
"Ours" as \`/api/admin/models\`.`,
  },
  { name: "Site and public files" },
  {
    name: "System, health and metrics",
    note: `See [configuration.md](configuration.md) for the variables named here and
[architecture.md](architecture.md) for where each module lives.`,
  },
];

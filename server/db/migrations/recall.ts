// Recall's word index of every chat message (stemmed: SQLite FTS5 with porter, PostgreSQL 'english' tsvectors) and the chats' recall switch.
import { type Kysely, type Migration, sql } from "kysely";
import { isSqlite } from "./search";

/**
 * The PostgreSQL tsvector of one side of an entry, for recall: English stemming ('english'
 * configuration: "painted" finds "painting"). Stored generated columns, so every write path
 * (send, reply, edit, swipe, delete, rewind, New Chat, import, account erasure) keeps them in step
 * without knowing of them.
 */
export const PG_RECALL_COLUMNS = {
  user: "recall_user",
  reply: "recall_reply",
} as const;

/**
 * Recall (docs/features.md "Memory"): a second full-text index of the chats' messages, one row per
 * side of an entry (the user's message, the reply shown), stemmed, and limited to one chat by a
 * token of its session id, so a reply's prompt can be given the earlier messages that share its
 * words. Search's index (0033, no stemming, one row per entry) stays as it is.
 * - SQLite: the FTS5 table `message_recall(chat, text)` with the porter tokenizer over unicode61
 *   (diacritics folded). Its rowid is `2 × message_search_rows.row + side` (0 the user's message,
 *   1 the reply), the entry's stable number from search's table; `chat` holds `s<session id
 *   without dashes>`. Search's three triggers are made again so that one trigger per event writes
 *   both indexes in order (the stable row first).
 * - PostgreSQL: two stored generated tsvector columns on chat_history (PG_RECALL_COLUMNS), each
 *   with a GIN index: the planner joins a query's matches with the session's rows (on a 10 000-
 *   message chat, reading every row of the session took several times longer).
 * - Both: `chat_sessions.recall`, 1 (the default) when recall is on for the chat.
 */
export const recallMigrations: Record<string, Migration> = {
  "0035_recall": {
    async up(db: Kysely<unknown>) {
      await sql`alter table chat_sessions add column recall integer not null default 1`.execute(db);
      if (!isSqlite(db)) {
        for (const [column, source] of [
          [PG_RECALL_COLUMNS.user, "message"],
          [PG_RECALL_COLUMNS.reply, "reply_message"],
        ] as const) {
          await sql`alter table chat_history add column ${sql.raw(column)} tsvector
            generated always as (to_tsvector('english', ${sql.raw(source)})) stored`.execute(db);
          await sql`create index ${sql.raw(`chat_history_${column}`)} on chat_history using gin (${sql.raw(column)})`.execute(
            db,
          );
        }
        return;
      }
      await sql`create virtual table message_recall using fts5(chat, text,
        tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
      await sql`drop trigger message_search_insert`.execute(db);
      await sql`drop trigger message_search_update`.execute(db);
      await sql`drop trigger message_search_delete`.execute(db);
      const chat = sql.raw(`'s' || replace(new.session_id, '-', '')`);
      await sql`create trigger message_search_insert after insert on chat_history begin
        insert into message_search_rows (entry_id) values (new.id);
        insert into message_search (rowid, message, reply) values (last_insert_rowid(), new.message, new.reply_message);
        insert into message_recall (rowid, chat, text)
          select 2 * row, ${chat}, new.message from message_search_rows where entry_id = new.id;
        insert into message_recall (rowid, chat, text)
          select 2 * row + 1, ${chat}, new.reply_message from message_search_rows where entry_id = new.id;
      end`.execute(db);
      await sql`create trigger message_search_update after update of message, reply_message on chat_history
        when old.message is not new.message or old.reply_message is not new.reply_message begin
        update message_search set message = new.message, reply = new.reply_message
          where rowid = (select row from message_search_rows where entry_id = new.id);
        update message_recall set text = new.message
          where rowid = 2 * (select row from message_search_rows where entry_id = new.id);
        update message_recall set text = new.reply_message
          where rowid = 2 * (select row from message_search_rows where entry_id = new.id) + 1;
      end`.execute(db);
      await sql`create trigger message_search_delete after delete on chat_history begin
        delete from message_search where rowid = (select row from message_search_rows where entry_id = old.id);
        delete from message_recall where rowid in (
          select 2 * row from message_search_rows where entry_id = old.id
          union all select 2 * row + 1 from message_search_rows where entry_id = old.id);
        delete from message_search_rows where entry_id = old.id;
      end`.execute(db);
      await sql`insert into message_recall (rowid, chat, text)
        select 2 * r.row, 's' || replace(h.session_id, '-', ''), h.message
        from message_search_rows r join chat_history h on h.id = r.entry_id`.execute(db);
      await sql`insert into message_recall (rowid, chat, text)
        select 2 * r.row + 1, 's' || replace(h.session_id, '-', ''), h.reply_message
        from message_search_rows r join chat_history h on h.id = r.entry_id`.execute(db);
    },
  },
};

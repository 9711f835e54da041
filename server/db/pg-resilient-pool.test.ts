import { describe, expect, it } from "vitest";
import { isRetryableRead, transactionStatement } from "./pg-resilient-pool";

describe("isRetryableRead", () => {
  it.each([
    'select "id", "name" from "characters" where "id" = $1',
    "  SELECT 1",
    "with recent as (select * from messages order by created_at desc limit $1) select * from recent",
    "(select 1) union (select 2)",
    "/* a comment */ select 1",
    "-- insert in a comment\nselect 1",
    'select "updated_at" from "chats"',
  ])("is true for the read %j", (text) => {
    expect(isRetryableRead(text)).toBe(true);
  });

  it.each([
    'insert into "messages" ("id") values ($1)',
    'update "chats" set "title" = $1',
    'delete from "sessions" where "id" = $1',
    "with gone as (delete from sessions returning id) select count(*) from gone",
    "with added as (insert into t values (1) returning id) select * from added",
    "select * into backup from messages",
    'select * from "chats" where "id" = $1 for update',
    "select * from chats for share",
    "select nextval('messages_id_seq')",
    "select pg_notify('channel', 'payload')",
    "select pg_advisory_xact_lock(1)",
    "select set_config('app.user', $1, false)",
    "merge into t using s on t.id = s.id when matched then delete",
    "begin",
    "commit",
    "savepoint sp1",
    "call refresh()",
    "values (1)",
  ])("is false for %j", (text) => {
    expect(isRetryableRead(text)).toBe(false);
  });
});

describe("transactionStatement", () => {
  it.each([
    ["begin", "begin"],
    ["BEGIN", "begin"],
    ["start transaction isolation level serializable read only", "begin"],
    ["commit", "end"],
    ["end", "end"],
    ["rollback", "rollback"],
    ["abort", "rollback"],
    ['rollback to "sp1"', null],
    ['savepoint "sp1"', null],
    ['release savepoint "sp1"', null],
    ['select "commit" from t', null],
    ["beginning", null],
  ] as const)("reads %j as %j", (text, expected) => {
    expect(transactionStatement(text)).toBe(expected);
  });
});

// The database's tables as one Kysely `Database` type, gathered from the schema-<area>.ts files, and the row types modules share.
import type { Insertable, Selectable, Updateable } from "kysely";
import type { AccountsTables } from "./schema-accounts";
import type { AdminTables } from "./schema-admin";
import type { BillingTables, PlansTable } from "./schema-billing";
import type { CharactersTable, CharactersTables, PresetCharactersTable } from "./schema-characters";
import type { ChatHistoryTable, ChatSessionsTable, ChatTables, ImageJobsTable } from "./schema-chat";
import type { InspectionTables } from "./schema-inspections";
import type { ModelsTables } from "./schema-models";
import type { DevicesTable, UsersTable, UsersTables } from "./schema-users";

export type * from "./schema-admin";
export type * from "./schema-billing";
export type * from "./schema-characters";
export type * from "./schema-chat";
export type * from "./schema-inspections";
export type * from "./schema-models";
export type * from "./schema-users";

/**
 * Database tables (spec section 3 entities the server keeps), by area in the schema-*.ts files
 * beside this one. Times are epoch milliseconds (bigint), flags are integers 0/1, ids exposed to
 * clients are UUID strings.
 */
export interface Database
  extends AccountsTables,
    UsersTables,
    BillingTables,
    CharactersTables,
    ChatTables,
    InspectionTables,
    AdminTables,
    ModelsTables {}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Character = Selectable<CharactersTable>;
export type PresetCharacterRow = Selectable<PresetCharactersTable>;
export type ChatHistoryRow = Selectable<ChatHistoryTable>;
export type ChatSession = Selectable<ChatSessionsTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Device = Selectable<DevicesTable>;
export type Plan = Selectable<PlansTable>;
export type ImageJob = Selectable<ImageJobsTable>;

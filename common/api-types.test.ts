// The API's wire types (common/api.ts) checked three ways: each main server presenter or service returns one, the SPA's web/api reads the same one, and the two agree.
import { describe, expectTypeOf, it } from "vitest";
import type {
  presentPreset as presentAdminPreset,
  presentAdminUser,
  presentAudit,
  presentContact,
  presentFreeSubscription,
  presentPlan,
} from "../server/modules/admin/admin.presenter";
import type { presentDevice, presentSessionUser } from "../server/modules/auth/auth.presenter";
import type { BackupsService } from "../server/modules/backups/backups.service";
import type {
  presentCharacterDetail,
  presentCharacterListItem,
  presentChatListItem,
  presentGroup,
  presentPreset,
} from "../server/modules/characters/characters.presenter";
import type { presentGroupReply, presentReply } from "../server/modules/chat/chat.presenter";
import type { presentHistoryEntry } from "../server/modules/conversation/conversation.presenter";
import type { presentPhoto } from "../server/modules/images/images.presenter";
import type { InvitationsService } from "../server/modules/members/invitations";
import type { presentPricingPlan } from "../server/modules/payments/payments.routes";
import type { SiteSettingsService } from "../server/modules/site/settings.service";
import type { presentCapabilities } from "../server/modules/system/capabilities.presenter";
import type { presentProfile } from "../server/modules/users/users.presenter";
import type { addUser, listInvitations } from "../web/api/accounts";
import type {
  getAdminBackups,
  getAdminMe,
  getAdminSite,
  listAdminAudit,
  listAdminContactMessages,
  listAdminFreeSubscriptions,
  listAdminPlans,
  listAdminPresets,
  searchAdminUsers,
} from "../web/api/admin";
import type { listDevices } from "../web/api/auth";
import type { getChatCapabilities } from "../web/api/capabilities";
import type {
  getCharacter,
  listCharacters,
  listChatCharacters,
  listGroups,
  listLanguages,
  listPresets,
} from "../web/api/characters";
import type { getHistoryPage, sendMessage } from "../web/api/chat";
import type { sendGroupMessage } from "../web/api/groups";
import type { listChatPhotos, sendPhoto } from "../web/api/images";
import type { listMemories } from "../web/api/memory";
import type { getPaymentOptions } from "../web/api/payments";
import type { listPricingPlans } from "../web/api/public";
import type { getRecall, setRecall } from "../web/api/recall";
import type { getSiteInfo } from "../web/api/site";
import type { confirmAdult, getProfile } from "../web/api/users";
import type { listVoices } from "../web/api/voice";
import type {
  AddedUser,
  AdminAuditEntry,
  AdminBackups,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminMe,
  AdminPlan,
  AdminPreset,
  AdminSiteSettings,
  AdminUser,
  CharacterDetail,
  CharacterGroup,
  CharacterListItem,
  ChatCapabilities,
  ChatHistoryEntry,
  ChatMemory,
  GroupReply,
  Invitation,
  Language,
  MessageReply,
  PaymentOptions,
  PhotoHistoryEntry,
  PhotoReply,
  PresetCharacter,
  PricingPlan,
  RecallSetting,
  SessionUser,
  SignedInDevice,
  SiteInfo,
  UserProfile,
  Voice,
} from "./api";

/**
 * These checks are types: `npm run typecheck` (tsc over common/) fails on a mismatch, and the
 * run itself only reports them. A presenter that renames or drops a field, or an SPA call that
 * reads its own copy of a shape, stops compiling here.
 */

/** What an SPA call resolves to. */
type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;
/** One item of the list an SPA call resolves to. */
type Item<F extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<F>>[number];
/** What a server service method resolves to. */
type Resolved<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

describe("the wire types are one declaration shared by the presenters and the SPA", () => {
  it("characters: list item, preset, group and detail", () => {
    expectTypeOf<ReturnType<typeof presentCharacterListItem>>().toEqualTypeOf<CharacterListItem>();
    expectTypeOf<ReturnType<typeof presentChatListItem>>().toEqualTypeOf<CharacterListItem>();
    expectTypeOf<Item<typeof listCharacters>>().toEqualTypeOf<ReturnType<typeof presentCharacterListItem>>();
    expectTypeOf<Item<typeof listChatCharacters>>().toEqualTypeOf<ReturnType<typeof presentChatListItem>>();

    expectTypeOf<ReturnType<typeof presentPreset>>().toEqualTypeOf<PresetCharacter>();
    expectTypeOf<Item<typeof listPresets>>().toEqualTypeOf<ReturnType<typeof presentPreset>>();

    expectTypeOf<ReturnType<typeof presentGroup>>().toEqualTypeOf<CharacterGroup>();
    expectTypeOf<Item<typeof listGroups>>().toEqualTypeOf<ReturnType<typeof presentGroup>>();

    expectTypeOf<ReturnType<typeof presentCharacterDetail>>().toEqualTypeOf<CharacterDetail>();
    expectTypeOf<Answer<typeof getCharacter>>().toEqualTypeOf<ReturnType<typeof presentCharacterDetail>>();
  });

  it("the chat screen's capabilities", () => {
    expectTypeOf<ReturnType<typeof presentCapabilities>>().toEqualTypeOf<ChatCapabilities>();
    expectTypeOf<Answer<typeof getChatCapabilities>>().toEqualTypeOf<
      ReturnType<typeof presentCapabilities>
    >();
  });

  it("chat: history entry, message reply, group reply, photo", () => {
    expectTypeOf<ReturnType<typeof presentHistoryEntry>>().toEqualTypeOf<ChatHistoryEntry>();
    expectTypeOf<Item<typeof getHistoryPage>>().toEqualTypeOf<ReturnType<typeof presentHistoryEntry>>();

    expectTypeOf<ReturnType<typeof presentReply>>().toEqualTypeOf<MessageReply>();
    expectTypeOf<Answer<typeof sendMessage>>().toEqualTypeOf<ReturnType<typeof presentReply>>();

    expectTypeOf<ReturnType<typeof presentGroupReply>>().toEqualTypeOf<GroupReply>();
    expectTypeOf<Answer<typeof sendGroupMessage>>().toEqualTypeOf<ReturnType<typeof presentGroupReply>>();

    expectTypeOf<ReturnType<typeof presentPhoto>>().toEqualTypeOf<PhotoHistoryEntry>();
    expectTypeOf<Item<typeof listChatPhotos>>().toEqualTypeOf<ReturnType<typeof presentPhoto>>();
  });

  it("the signed-in user: session user, profile, devices", () => {
    expectTypeOf<ReturnType<typeof presentSessionUser>>().toEqualTypeOf<SessionUser>();
    expectTypeOf<Answer<typeof confirmAdult>>().toEqualTypeOf<ReturnType<typeof presentSessionUser>>();

    expectTypeOf<ReturnType<typeof presentProfile>>().toEqualTypeOf<UserProfile>();
    expectTypeOf<Answer<typeof getProfile>>().toEqualTypeOf<ReturnType<typeof presentProfile>>();

    expectTypeOf<ReturnType<typeof presentDevice>>().toEqualTypeOf<SignedInDevice>();
    expectTypeOf<Item<typeof listDevices>>().toEqualTypeOf<ReturnType<typeof presentDevice>>();
  });

  it("plans: the pricing page's and the admin console's", () => {
    expectTypeOf<ReturnType<typeof presentPricingPlan>>().toEqualTypeOf<PricingPlan>();
    expectTypeOf<Item<typeof listPricingPlans>>().toEqualTypeOf<ReturnType<typeof presentPricingPlan>>();

    expectTypeOf<ReturnType<typeof presentPlan>>().toEqualTypeOf<AdminPlan>();
    expectTypeOf<Item<typeof listAdminPlans>>().toEqualTypeOf<ReturnType<typeof presentPlan>>();
  });

  it("the admin console's other lists", () => {
    expectTypeOf<ReturnType<typeof presentAdminPreset>>().toEqualTypeOf<AdminPreset>();
    expectTypeOf<Item<typeof listAdminPresets>>().toEqualTypeOf<ReturnType<typeof presentAdminPreset>>();

    expectTypeOf<ReturnType<typeof presentAdminUser>>().toEqualTypeOf<AdminUser>();
    expectTypeOf<Item<typeof searchAdminUsers>>().toEqualTypeOf<ReturnType<typeof presentAdminUser>>();

    expectTypeOf<ReturnType<typeof presentContact>>().toEqualTypeOf<AdminContactMessage>();
    expectTypeOf<Item<typeof listAdminContactMessages>>().toEqualTypeOf<ReturnType<typeof presentContact>>();

    expectTypeOf<ReturnType<typeof presentFreeSubscription>>().toEqualTypeOf<AdminFreeSubscription>();
    expectTypeOf<Item<typeof listAdminFreeSubscriptions>>().toEqualTypeOf<
      ReturnType<typeof presentFreeSubscription>
    >();

    expectTypeOf<ReturnType<typeof presentAudit>>().toEqualTypeOf<AdminAuditEntry>();
    expectTypeOf<Item<typeof listAdminAudit>>().toEqualTypeOf<ReturnType<typeof presentAudit>>();
  });

  it("the admin console's accounts, backups and site settings, built by services", () => {
    expectTypeOf<Resolved<InvitationsService["listOpen"]>[number]>().toEqualTypeOf<Invitation>();
    expectTypeOf<Resolved<InvitationsService["create"]>>().toEqualTypeOf<Invitation>();
    expectTypeOf<Item<typeof listInvitations>>().toEqualTypeOf<
      Resolved<InvitationsService["listOpen"]>[number]
    >();

    expectTypeOf<ReturnType<BackupsService["status"]>>().toEqualTypeOf<AdminBackups>();
    expectTypeOf<Answer<typeof getAdminBackups>>().toEqualTypeOf<ReturnType<BackupsService["status"]>>();

    expectTypeOf<Resolved<SiteSettingsService["view"]>>().toEqualTypeOf<AdminSiteSettings>();
    expectTypeOf<Answer<typeof getAdminSite>>().toEqualTypeOf<Resolved<SiteSettingsService["view"]>>();

    expectTypeOf<Resolved<SiteSettingsService["info"]>>().toEqualTypeOf<SiteInfo>();
    expectTypeOf<Answer<typeof getSiteInfo>>().toEqualTypeOf<Resolved<SiteSettingsService["info"]>>();
  });

  /*
   * Answers their route files build inline (no presenter yet: characters.routes.ts languages and
   * voices, memory.routes.ts memories and recall, payments.routes.ts options, admin.routes.ts me,
   * members routes the added user, images.routes.ts the photo reply): the SPA reads the common type.
   */
  it("answers built in their routes: the SPA reads the common type", () => {
    expectTypeOf<Item<typeof listLanguages>>().toEqualTypeOf<Language>();
    expectTypeOf<Item<typeof listVoices>>().toEqualTypeOf<Voice>();
    expectTypeOf<Item<typeof listMemories>>().toEqualTypeOf<ChatMemory>();
    expectTypeOf<Answer<typeof getRecall>>().toEqualTypeOf<RecallSetting | null>();
    expectTypeOf<Answer<typeof setRecall>>().toEqualTypeOf<RecallSetting>();
    expectTypeOf<Answer<typeof getPaymentOptions>>().toEqualTypeOf<PaymentOptions>();
    expectTypeOf<Answer<typeof getAdminMe>>().toEqualTypeOf<AdminMe>();
    expectTypeOf<NonNullable<Answer<typeof addUser>["data"]>>().toEqualTypeOf<AddedUser>();
    expectTypeOf<Answer<typeof sendPhoto>>().toEqualTypeOf<PhotoReply>();
  });
});

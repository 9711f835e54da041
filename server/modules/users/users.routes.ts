// Profile routes (product.md §7): users/profile, users/update, users/update-password, and ours: the 18+ confirmation and UI language.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { Envelope, envelopeOf, SessionUser, UserProfile } from "../../../common/api";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answers, type ZodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { presentSessionUser } from "../auth/auth.presenter";
import { presentProfile } from "./users.presenter";
import {
  ConfirmAgeBody,
  PasswordBody,
  SelfQuery,
  UiLanguageBody,
  UpdateBody,
  usersDoc,
} from "./users.schemas";
import type { UsersService } from "./users.service";

const PROFILE =
  "`data`: name, userName, userEmail, pricingPlanName, chatLimit, chatCount, userPicture, isAdmin";
/** The answer of the routes that change the user: the fresh session user under `data`. */
const SESSION_USER_ANSWER = answers(envelopeOf(SessionUser));

/** product.md §7: users/profile, users/update, users/update-password; all behind the session. */
export async function usersRoutes(
  app: FastifyInstance,
  users: UsersService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (scope) => userRoutes(scope, users));
}

function userRoutes(app: ZodApp, users: UsersService): void {
  app.get(
    "/api/users/profile/",
    {
      schema: {
        ...usersDoc(PROFILE, "§7"),
        querystring: SelfQuery,
        response: answers(envelopeOf(UserProfile)),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertSelf(user.id, request.query.id);
      return ok(msg("users.profile"), { data: presentProfile(user, await users.profile(user)) });
    },
  );

  /** Ours: stores the 18+ confirmation; answers the fresh session user (`adult` '1'). */
  const confirmAge = {
    ...usersDoc('`data`: the `SessionUser` with `adult: "1"` (chat needs it)', "ours"),
    body: ConfirmAgeBody,
    response: SESSION_USER_ANSWER,
  };
  app.post("/api/users/confirm-age", { schema: confirmAge }, async (request) => {
    const updated = await users.confirmAdult(currentUser(request));
    return ok(msg("users.thank"), { data: presentSessionUser(updated) });
  });

  /** Ours: keeps the UI language with the account; answers the fresh session user. */
  const uiLanguage = {
    ...usersDoc("`data`: the fresh `SessionUser`", "ours"),
    body: UiLanguageBody,
    response: SESSION_USER_ANSWER,
  };
  app.post("/api/users/ui-language", { schema: uiLanguage }, async (request) => {
    const updated = await users.setUiLanguage(currentUser(request), request.body.language);
    return ok(msg("users.languageSaved"), { data: presentSessionUser(updated) });
  });

  const update = {
    ...usersDoc("`data`: the fresh `SessionUser`, `page`", "§7"),
    consumes: ["multipart/form-data"],
    body: UpdateBody,
    response: SESSION_USER_ANSWER,
  };
  app.post("/api/users/update", { schema: update }, async (request) => {
    const user = currentUser(request);
    const { body } = request;
    assertSelf(user.id, body.id);
    const updated = await users.update(user, {
      fullName: body.fname,
      userName: body.name,
      photo: body.photo,
    });
    return ok(msg("users.profileUpdated"), { page: "/characters/list", data: presentSessionUser(updated) });
  });

  const password = {
    ...usersDoc("`page`; `wrong_password` on a wrong current one", "§7"),
    body: PasswordBody,
    response: answers(Envelope),
  };
  app.patch("/api/users/update-password", { schema: password }, async (request) => {
    const user = currentUser(request);
    const { body } = request;
    assertSelf(user.id, body.id);
    await users.changePassword(user, body.cpassword, body.npassword, body.rtpassword, request.bearer ?? "");
    return ok(msg("users.passwordBeenChanged"), { page: "/characters/list" });
  });
}

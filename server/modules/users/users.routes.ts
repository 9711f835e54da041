// Profile routes (product.md §7): users/profile, users/update, users/update-password, and ours: the 18+ confirmation and UI language.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { presentSessionUser } from "../auth/auth.presenter";
import { presentProfile } from "./users.presenter";
import { ConfirmAgeBody, PasswordBody, SelfQuery, UiLanguageBody, UpdateBody } from "./users.schemas";
import type { UsersService } from "./users.service";

/** product.md §7: users/profile, users/update, users/update-password; all behind the session. */
export async function usersRoutes(
  app: FastifyInstance,
  users: UsersService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (scope) => userRoutes(scope, users));
}

function userRoutes(app: FastifyInstance, users: UsersService): void {
  app.get("/api/users/profile/", async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, parseInput(SelfQuery, request.query).id);
    return ok("Profile.", { data: presentProfile(user, await users.profile(user)) });
  });

  /** Ours: stores the 18+ confirmation; answers the fresh session user (`adult` '1'). */
  app.post("/api/users/confirm-age", async (request) => {
    parseInput(ConfirmAgeBody, request.body);
    const updated = await users.confirmAdult(currentUser(request));
    return ok("Thank you.", { data: presentSessionUser(updated) });
  });

  /** Ours: keeps the UI language with the account; answers the fresh session user. */
  app.post("/api/users/ui-language", async (request) => {
    const body = parseInput(UiLanguageBody, request.body);
    const updated = await users.setUiLanguage(currentUser(request), body.language);
    return ok("Language saved.", { data: presentSessionUser(updated) });
  });

  app.post("/api/users/update", async (request) => {
    const user = currentUser(request);
    const body = parseInput(UpdateBody, request.body);
    assertSelf(user.id, body.id);
    const updated = await users.update(user, {
      fullName: body.fname,
      userName: body.name,
      photo: body.photo,
    });
    return ok("Profile updated.", { page: "/characters/list", data: presentSessionUser(updated) });
  });

  app.patch("/api/users/update-password", async (request) => {
    const user = currentUser(request);
    const body = parseInput(PasswordBody, request.body);
    assertSelf(user.id, body.id);
    await users.changePassword(user, body.cpassword, body.npassword, body.rtpassword, request.bearer ?? "");
    return ok("Your password has been changed.", { page: "/characters/list" });
  });
}

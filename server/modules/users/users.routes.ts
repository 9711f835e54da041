import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { optionalUpload } from "../../http/uploads";
import { parseInput } from "../../http/validate";
import { presentSessionUser } from "../auth/auth.presenter";
import type { UsersService } from "./users.service";

const SelfQuery = z.object({ id: z.string().max(100).optional() });
const UpdateBody = z.object({
  fname: z.string().trim().min(1, "is required").max(100),
  name: z.string().trim().min(1, "is required").max(50),
  photo: optionalUpload,
  old_photo: z.string().max(200).optional(),
  id: z.string().max(100).optional(),
});
/** Ours: the person ticks "I am 18 or older" (issue 5). */
const ConfirmAgeBody = z.object({ confirm: z.literal("1", "must be '1'") });
const PasswordBody = z.object({
  cpassword: z.string().min(1, "is required").max(256),
  npassword: z.string().min(8, "must be at least 8 characters").max(256),
  rtpassword: z.string().min(1, "is required").max(256),
  id: z.string().max(100).optional(),
});

/** spec 7: users/profile, users/update, users/update-password; all behind the session. */
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
    const { planName, chatCount } = await users.profile(user);
    return ok("Profile.", {
      data: {
        name: user.full_name,
        userName: user.user_name,
        userEmail: user.is_demo ? "" : user.email,
        pricingPlanName: planName,
        chatLimit: user.chat_limit,
        chatCount,
        userPicture: user.picture,
      },
    });
  });

  /** Ours: stores the 18+ confirmation; answers the fresh session user (`adult` '1'). */
  app.post("/api/users/confirm-age", async (request) => {
    parseInput(ConfirmAgeBody, request.body);
    const updated = await users.confirmAdult(currentUser(request));
    return ok("Thank you.", { data: presentSessionUser(updated) });
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

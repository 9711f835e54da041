import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, callMultipart, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("profile and password change", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const patch = (token: string, form: Record<string, string>) =>
    t.app.inject({
      method: "PATCH",
      url: "/api/users/update-password",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(form).toString(),
    });

  it("shows the profile with plan, chat limit and chat count", async () => {
    const { token, userId } = await demoLogin(t.app);
    const res = await call(t.app, "GET", `/api/users/profile/?id=${userId}`, { token });
    expect(res.body.data).toEqual({
      name: "Guest",
      userName: expect.stringMatching(/^guest-/),
      userEmail: "",
      pricingPlanName: "Free",
      chatLimit: 15,
      chatCount: 0,
      userPicture: "",
      isAdmin: false,
    });
    const other = await demoLogin(t.app);
    expect(
      (await call(t.app, "GET", `/api/users/profile/?id=${userId}`, { token: other.token })).status,
    ).toBe(404);
  });

  it("updates names and the picture, refusing blank names", async () => {
    const { token } = await demoLogin(t.app);
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#0f4c75" } })
      .jpeg()
      .toBuffer();
    const res = await callMultipart(t.app, "/api/users/update", {
      token,
      fields: { fname: "Sam Rivers", name: "sam" },
      files: { photo: { bytes: jpeg, filename: "me.jpg" } },
    });
    expect(res.body.success).toBe(1);
    const profile = (await call(t.app, "GET", "/api/users/profile/", { token })).body.data as Record<
      string,
      string
    >;
    expect(profile).toMatchObject({ name: "Sam Rivers", userName: "sam" });
    const pic = await t.app.inject({ method: "GET", url: `/content/users/${profile.userPicture}` });
    expect(pic.headers["content-type"]).toBe("image/jpeg");
    const blank = await callMultipart(t.app, "/api/users/update", {
      token,
      fields: { fname: " ", name: "sam" },
    });
    expect(blank.status).toBe(400);
  });

  it("changes the password after checking the current one, ending the other sessions only", async () => {
    const email = `pw-${dialect}@example.com`;
    await t.auth.createAccount({ email, password: "first-pass-1", fullName: "P", planName: "Free" });
    const login = async (password: string) =>
      call(t.app, "POST", "/api/auth/login", { form: { email, password } });
    const a = ((await login("first-pass-1")).body.data as { token: string }).token;
    const b = ((await login("first-pass-1")).body.data as { token: string }).token;
    const mismatch = await patch(a, {
      cpassword: "first-pass-1",
      npassword: "second-pass-2",
      rtpassword: "other-pass-3",
    });
    expect(mismatch.json()).toEqual({
      success: 0,
      message: "New and ReTyped password do not match.",
      code: "bad_request",
    });
    const wrong = await patch(a, {
      cpassword: "nope",
      npassword: "second-pass-2",
      rtpassword: "second-pass-2",
    });
    expect(wrong.json().message).toBe("The current password is not correct.");
    const ok = await patch(a, {
      cpassword: "first-pass-1",
      npassword: "second-pass-2",
      rtpassword: "second-pass-2",
    });
    expect(ok.json()).toMatchObject({ success: 1 });
    expect((await call(t.app, "GET", "/api/users/profile/", { token: a })).status).toBe(200);
    expect((await call(t.app, "GET", "/api/users/profile/", { token: b })).status).toBe(401);
    expect((await login("second-pass-2")).body.success).toBe(1);
  });
});

// Site-wide settings an admin changes without a restart: whether the guest demo is open, first set from the environment.
import type { AdminSiteSettings, SiteInfo } from "../../../common/api";
import type { User } from "../../db/schema";
import type { AppConfig } from "../../env";
import type { SiteSettingsRepo } from "./settings.repo";

/** Who may sign up (REGISTRATION), as the public site info tells it. */
export type RegistrationMode = AppConfig["REGISTRATION"];

/** The key of the guest demo's switch in `site_settings`. */
const DEMO_KEY = "demo";

/**
 * The site's switches. The guest demo (`/login/{DEMO_LOGIN_ID}`, POST /api/auth/demo-login) is
 * the owner's choice: its first value comes from the environment when the server first starts
 * with this setting (DEMO_LOGIN, else on only with REGISTRATION=open, so a closed site stays
 * closed), and from then on only an admin changes it (Admin → Site); every instance reads it
 * from the database at each use, so a change holds at once everywhere, without a restart.
 */
export class SiteSettingsService {
  constructor(
    private readonly repo: SiteSettingsRepo,
    private readonly options: {
      /** The demo's first value (AppConfig.demoLogin). */
      demoAtFirstStart: boolean;
      registration: RegistrationMode;
      demoLoginId: string;
      /** PUBLIC_URL, or "" when it is not set (links then start with the caller's origin). */
      publicUrl: string;
    },
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores the demo's first value unless it is stored already (every start; only the first writes). */
  async seed(): Promise<void> {
    await this.repo.insertIfAbsent(DEMO_KEY, this.options.demoAtFirstStart ? "1" : "0", this.now());
  }

  /** Whether the guest demo is open now (seeding the first value when it was never stored). */
  async demoOpen(): Promise<boolean> {
    let value = await this.repo.get(DEMO_KEY);
    if (value === undefined) {
      await this.seed();
      value = await this.repo.get(DEMO_KEY);
    }
    return value === "1";
  }

  /** The public site info (GET /api/site): the demo's state and the REGISTRATION mode. */
  async info(): Promise<SiteInfo> {
    return { demo: await this.demoOpen(), registration: this.options.registration };
  }

  /**
   * The console's view (GET /api/admin/site).
   * @param origin the caller's origin (e.g. http://192.168.1.5:3000), used when PUBLIC_URL is not set.
   */
  async view(origin: string): Promise<AdminSiteSettings> {
    const base = this.options.publicUrl || origin;
    return {
      ...(await this.info()),
      demoLink: `${base}/login/${encodeURIComponent(this.options.demoLoginId)}`,
    };
  }

  /** Opens or closes the guest demo at once for every instance (audit "site.demo"). */
  async setDemo(admin: User, open: boolean, origin: string): Promise<AdminSiteSettings> {
    await this.repo.put(DEMO_KEY, open ? "1" : "0", this.now());
    await this.repo.audit(admin, "site.demo", DEMO_KEY, { demo: open });
    return this.view(origin);
  }
}

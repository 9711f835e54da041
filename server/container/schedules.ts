// The composition root's scheduled jobs: what runs once per cluster per interval.
import type { AppConfig } from "../env";
import { type JobQueue, periodic } from "../jobs/index";
import type { AccountService } from "../modules/account/account.service";
import { EXPORT_CLEANUP_MS } from "../modules/account/export.service";
import type { AuthService } from "../modules/auth/auth.service";
import { BACKUP_CHECK_MS, type BackupsService } from "../modules/backups/backups.service";
import type { ChatService } from "../modules/chat/chat.service";
import type { InstanceLease } from "../modules/chat/instance-lease";
import { CHECKIN_JOB_MS, type CheckinsService } from "../modules/checkins/checkins.service";
import type { PaymentsService } from "../modules/payments/payments.service";
import type { SubscribeService } from "../modules/subscribe/subscribe.service";

/** How often pending replies whose generation stopped are looked for, milliseconds. */
const STALLED_SWEEP_MS = 5_000;

/** The services whose periodic work is scheduled. */
export interface ScheduledServices {
  auth: AuthService;
  payments: PaymentsService;
  account: AccountService;
  instanceLease: InstanceLease;
  chat: ChatService;
  checkins: CheckinsService;
  subscribe: SubscribeService;
  backups: BackupsService;
}

/**
 * Schedules the periodic jobs: each runs once per cluster per interval (and soon after its
 * schedule first starts), in whichever process runs workers. A new one is one line here.
 * @param log a plain line for the operator (what a run removed, settled or sent).
 */
export function schedulePeriodicJobs(
  config: AppConfig,
  jobs: JobQueue,
  services: ScheduledServices,
  log: (line: string) => void,
): void {
  const { auth, payments, account, instanceLease, chat, checkins, subscribe, backups } = services;
  periodic(jobs, "auth.remove-expired-demo-users", 3_600_000, async () => {
    const removed = await auth.removeExpired();
    if (removed) log(`Removed ${removed} expired demo users`);
  });
  periodic(jobs, "payments.expire-ended-plans", 60_000, () => payments.expireEndedPlans());
  periodic(jobs, "account.expire-exports", EXPORT_CLEANUP_MS, () => account.exports.cleanup());
  // A reply left "pending" by an instance that died is settled (partial or failed) within seconds.
  periodic(jobs, "chat.settle-stalled-replies", STALLED_SWEEP_MS, async () => {
    await instanceLease.removeLapsed();
    const settled = await chat.settleStalledReplies();
    if (settled) log(`Settled ${settled} stalled replies`);
  });
  periodic(jobs, "checkins.send-due", CHECKIN_JOB_MS, async () => {
    const sent = await checkins.sendDue();
    if (sent) log(`Sent ${sent} check-ins`);
  });
  // BACKUP_SCHEDULE: each check looks whether a time of the cron expression fell since the last one.
  if (config.backupSchedule)
    periodic(jobs, "backups.scheduled", BACKUP_CHECK_MS, () => backups.runIfDue().then(() => undefined));
  if (subscribe.checksComments) {
    const every = Math.min(config.FREE_SUBSCRIBE_POLL_SECONDS * 1000, 10_000);
    periodic(jobs, "subscribe.check-comments", every, () => subscribe.runDue());
  }
}

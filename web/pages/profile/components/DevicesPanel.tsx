// The profile's "Signed-in devices": each device registered for device login, when it was used, and Revoke.
import { useTranslation } from "react-i18next";
import type { SignedInDevice } from "../../../../common/api";
import { Spinner } from "../../../components/Spinner";
import { formatDate } from "../../../i18n";
import { succeed, warn } from "../../../lib/notify";
import { useDevices, useRevokeDevice } from "../hooks/useDevices";

/** "Mar 5, 2026, 2:05 PM" in the app's language and the reader's time zone. */
const when = (ms: number): string => formatDate(ms, { dateStyle: "medium", timeStyle: "short" });

/**
 * The profile's "Signed-in devices": every device registered for device login, when
 * it was added and last signed in, and a Revoke button that ends it and the sessions it started.
 * Guests (demo users) cannot register devices, so for them the panel is not shown while empty.
 */
export function DevicesPanel({ guest }: { guest: boolean }) {
  const { t } = useTranslation("profile");
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const list = devices.data ?? [];
  if (guest && list.length === 0) return null;

  const onRevoke = (device: SignedInDevice): void => {
    revoke.mutate(device.id, {
      onSuccess: () => succeed(t("devices.revoked", { name: device.name })),
      onError: (error) => warn(error.message),
    });
  };

  return (
    <div className="card entity-card">
      <section className="devices-panel" aria-labelledby="devices-panel-title">
        <h2 id="devices-panel-title">{t("devices.title")}</h2>
        {devices.isLoading ? (
          <Spinner label={t("devices.loading")} />
        ) : devices.isError ? (
          <p className="muted">{t("devices.loadFailed")}</p>
        ) : list.length === 0 ? (
          <p className="muted">{t("devices.none")}</p>
        ) : (
          <ul className="devices-panel__list" aria-labelledby="devices-panel-title">
            {list.map((device) => (
              <li key={device.id} className="devices-panel__item">
                <div>
                  <strong>{device.name}</strong>
                  <p className="muted">
                    {t("devices.added", { date: when(device.createdAt) })} ·{" "}
                    {device.lastUsedAt === null
                      ? t("devices.notUsed")
                      : t("devices.lastUsed", { date: when(device.lastUsedAt) })}
                  </p>
                </div>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t("devices.revokeOf", { name: device.name })}
                  disabled={revoke.isPending && revoke.variables === device.id}
                  aria-busy={revoke.isPending && revoke.variables === device.id}
                  onClick={() => onRevoke(device)}
                >
                  {t("devices.revoke")}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

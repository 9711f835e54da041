import type { SignedInDevice } from "../../../../common/api";
import { Spinner } from "../../../components/Spinner";
import { succeed, warn } from "../../../lib/notify";
import { useDevices, useRevokeDevice } from "../hooks/useDevices";

/** "5 Mar 2026, 14:05" in the reader's locale and time zone. */
const when = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * The profile's "Signed-in devices" (issue 13): every device registered for device login, when
 * it was added and last signed in, and a Revoke button that ends it and the sessions it started.
 * Guests (demo users) cannot register devices, so for them the panel is not shown while empty.
 */
export function DevicesPanel({ guest }: { guest: boolean }) {
  const devices = useDevices();
  const revoke = useRevokeDevice();
  const list = devices.data ?? [];
  if (guest && list.length === 0) return null;

  const onRevoke = (device: SignedInDevice): void => {
    revoke.mutate(device.id, {
      onSuccess: () => succeed(`${device.name} can no longer sign in.`),
      onError: (error) => warn(error.message),
    });
  };

  return (
    <div className="card entity-card">
      <section className="devices-panel" aria-labelledby="devices-panel-title">
        <h2 id="devices-panel-title">Signed-in devices</h2>
        {devices.isLoading ? (
          <Spinner label="Loading devices" />
        ) : devices.isError ? (
          <p className="muted">Could not load the devices. Please try again later.</p>
        ) : list.length === 0 ? (
          <p className="muted">No device is registered to sign in by itself.</p>
        ) : (
          <ul className="devices-panel__list" aria-labelledby="devices-panel-title">
            {list.map((device) => (
              <li key={device.id} className="devices-panel__item">
                <div>
                  <strong>{device.name}</strong>
                  <p className="muted">
                    Added {when(device.createdAt)} ·{" "}
                    {device.lastUsedAt === null
                      ? "not used yet"
                      : `last signed in ${when(device.lastUsedAt)}`}
                  </p>
                </div>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Revoke ${device.name}`}
                  disabled={revoke.isPending && revoke.variables === device.id}
                  aria-busy={revoke.isPending && revoke.variables === device.id}
                  onClick={() => onRevoke(device)}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

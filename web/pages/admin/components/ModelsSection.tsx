// The admin console's Models section: the connections (test, edit, delete), their form and the assignments.
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import type { ModelConnection, ModelsOverview, ModelTestResult } from "../../../../common/models-api";
import { AppSwal } from "../../../lib/dialogs";
import { succeed } from "../../../lib/notify";
import { useAdminModels, useDeleteModelConnection, useTestModelConnection } from "../hooks/useAdminModels";
import { ActionButton } from "./ActionButton";
import { AdminTable } from "./AdminTable";
import { ModelAssignmentsPanel } from "./ModelAssignments";
import { ModelForm } from "./ModelForm";
import { failureText } from "./modelFormState";

/** The anchor of the section: `/admin#models` opens the Models tab and scrolls here. */
export const MODELS_ANCHOR = "models";

/**
 * Models: the OpenAI-compatible endpoints and embedded GGUF files the chats answer with, a form
 * to add or edit one, and which connection answers by default, per plan and per preset character.
 */
export function ModelsSection() {
  const { t } = useTranslation("models");
  const models = useAdminModels();
  const [editing, setEditing] = useState<ModelConnection | "new" | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === `#${MODELS_ANCHOR}`) heading.current?.scrollIntoView({ block: "start" });
  }, [hash]);
  const overview = models.data;
  return (
    <section className="admin-models" aria-labelledby={MODELS_ANCHOR}>
      <h2 id={MODELS_ANCHOR} ref={heading} tabIndex={-1}>
        {t("section.title")}
      </h2>
      <p className="muted">{t("section.intro")}</p>
      {overview === undefined ? (
        <p className="muted">{models.isError ? t("section.loadFailed") : t("section.loading")}</p>
      ) : (
        <>
          <div className="row-actions">
            <button type="button" className="button button--primary" onClick={() => setEditing("new")}>
              {t("section.add")}
            </button>
          </div>
          <ConnectionsTable overview={overview} onEdit={setEditing} />
          {editing !== null && (
            <ModelForm
              key={editing === "new" ? "new" : editing.id}
              overview={overview}
              connection={editing === "new" ? undefined : editing}
              onDone={() => setEditing(null)}
            />
          )}
          <ModelAssignmentsPanel overview={overview} />
        </>
      )}
    </section>
  );
}

/** The stored connections, or a sentence saying there are none yet. */
function ConnectionsTable({
  overview,
  onEdit,
}: {
  overview: ModelsOverview;
  onEdit: (connection: ModelConnection) => void;
}) {
  const { t } = useTranslation("models");
  return (
    <AdminTable
      className="admin-models__table"
      label={t("list.table")}
      rows={overview.connections}
      empty={t("list.empty")}
      columns={[
        {
          label: t("list.name"),
          className: "admin-models__name",
          cell: (connection) => (
            <>
              <strong>{connection.name}</strong>
              <span className="muted">
                {t(connection.kind === "embedded" ? "kind.embedded" : "kind.openai")}
              </span>
            </>
          ),
        },
        {
          label: t("list.endpoint"),
          className: "admin-models__endpoint",
          cell: (connection) => (
            <>
              {connection.baseUrl !== "" && <span>{connection.baseUrl}</span>}
              <span>
                <span className="muted">{t("list.model")}: </span>
                {connection.model}
              </span>
              {connection.hasApiKey && <span className="admin-badge">{t("list.keyStored")}</span>}
            </>
          ),
        },
        {
          label: t("list.generation"),
          cell: (connection) =>
            t("list.settings", {
              maxTokens: connection.maxTokens,
              temperature: connection.temperature,
              contextSize: connection.contextSize,
            }),
        },
        {
          label: t("list.actions"),
          cell: (connection) => (
            <ConnectionActions connection={connection} onEdit={() => onEdit(connection)} />
          ),
        },
      ]}
    />
  );
}

/** A connection's Test, Edit and Delete (asked first), and what its last test said. */
function ConnectionActions({ connection, onEdit }: { connection: ModelConnection; onEdit: () => void }) {
  const { t } = useTranslation("models");
  const test = useTestModelConnection();
  const remove = useDeleteModelConnection();
  const { name } = connection;
  const onDelete = async () => {
    if (remove.isPending) return;
    const answer = await AppSwal.fire({
      icon: "warning",
      titleText: t("delete.title", { name }),
      text: t("delete.text"),
      showCancelButton: true,
      confirmButtonText: t("delete.confirm"),
      cancelButtonText: t("common:actions.cancel"),
      focusCancel: true,
    });
    if (!answer.isConfirmed) return;
    remove.mutate(connection.id, { onSuccess: () => succeed(t("delete.done", { name })) });
  };
  return (
    <>
      <div className="row-actions">
        <ActionButton
          small
          label={t("list.testOf", { name })}
          busy={test.isPending}
          onClick={() => test.mutate(connection.id)}
        >
          {t("list.test")}
        </ActionButton>
        <ActionButton small label={t("list.editOf", { name })} onClick={onEdit}>
          {t("list.edit")}
        </ActionButton>
        <ActionButton
          look="danger"
          small
          label={t("list.deleteOf", { name })}
          disabled={remove.isPending}
          onClick={() => void onDelete()}
        >
          {t("list.delete")}
        </ActionButton>
      </div>
      <ModelTestOutcome
        pending={test.isPending}
        result={test.data}
        failure={test.isError ? failureText(test.error, t("errors.unreachable")) : ""}
      />
    </>
  );
}

/**
 * What a test said, in a status region: the time to the first token and the whole reply's,
 * then the reply; or the failure's sentence.
 */
export function ModelTestOutcome({
  pending,
  result,
  failure,
}: {
  pending: boolean;
  result?: ModelTestResult;
  failure: string;
}) {
  const { t } = useTranslation("models");
  let content: ReactNode = null;
  if (pending) content = <span className="muted">{t("test.running")}</span>;
  else if (failure !== "") content = <span className="field__error">{failure}</span>;
  else if (result !== undefined && !result.ok) {
    content = <span className="field__error">{result.error || t("test.failed")}</span>;
  } else if (result !== undefined) {
    content = (
      <>
        <span>
          {result.timeToFirstTokenMs === null
            ? t("test.noFirstToken", { total: Math.round(result.totalMs) })
            : t("test.timing", {
                ttft: Math.round(result.timeToFirstTokenMs),
                total: Math.round(result.totalMs),
              })}
        </span>
        {result.text !== "" && <q className="admin-models__reply">{result.text}</q>}
      </>
    );
  }
  return (
    <div className="admin-models__test" role="status">
      {content}
    </div>
  );
}

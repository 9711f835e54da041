// The Models section's add/edit form (ModelForm, wired to the server) and its markup (ModelFormView).
import { type Dispatch, type FormEvent, useEffect, useReducer, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { ModelConnection, ModelsOverview } from "../../../../common/models-api";
import { FormActions } from "../../../components/EntityForm";
import { succeed } from "../../../lib/notify";
import { useListModelIds, useSaveModelConnection } from "../hooks/useAdminModels";
import { AdminField } from "./AdminField";
import { ApiKeyField, EmbeddedFileField, GenerationFields, ModelIdField } from "./ModelFormFields";
import {
  failureText,
  generationProblem,
  initialModelForm,
  isModelPreset,
  keyFieldShown,
  type ModelFormAction,
  type ModelFormState,
  type ModelFormValues,
  modelFormReducer,
  modelListSource,
  toModelInput,
} from "./modelFormState";

type Translate = ReturnType<typeof useTranslation<"models">>["t"];

/** The first thing the form lacks before it can be sent, as a sentence; "" when it is complete. */
function localProblem(values: ModelFormValues, t: Translate): string {
  if (values.name.trim() === "") return t("form.nameRequired");
  if (values.kind === "openai" && values.baseUrl.trim() === "") return t("form.baseUrlRequired");
  if (values.model.trim() === "") {
    return t(values.kind === "embedded" ? "form.fileRequired" : "form.modelRequired");
  }
  const range = generationProblem(values);
  if (range === null) return "";
  return t("form.outOfRange", { label: t(`form.${range.field}`), min: range.min, max: range.max });
}

/**
 * A connection's form: new when `connection` is undefined. Sends what `toModelInput` builds; a
 * refusal (the server's sentence), a failed "Load models" or a missing field shows next to the
 * form, a success closes it with a toast. Opening it moves the focus to its heading (the form is
 * below the list, often off screen on a phone; no field is focused, so no keyboard pops up).
 */
export function ModelForm({
  overview,
  connection,
  onDone,
}: {
  overview: ModelsOverview;
  connection?: ModelConnection;
  onDone: () => void;
}) {
  const { t } = useTranslation("models");
  const [state, dispatch] = useReducer(modelFormReducer, undefined, () =>
    initialModelForm(connection, overview.presets),
  );
  const save = useSaveModelConnection();
  const list = useListModelIds();
  const keyShown = keyFieldShown(state.values, overview.presets, connection);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector("h3")?.focus();
  }, []);
  const fail = (error: unknown) =>
    dispatch({ type: "problem", message: failureText(error, t("errors.unreachable")) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = localProblem(state.values, t);
    dispatch({ type: "problem", message: problem });
    if (problem !== "" || save.isPending) return;
    const input = toModelInput(state.values, connection, keyShown);
    save.mutate(
      { id: connection?.id, input },
      {
        onSuccess: (saved) => {
          succeed(t("form.saved", { name: saved.name }));
          onDone();
        },
        onError: fail,
      },
    );
  };
  const onLoadModels = () => {
    if (state.values.baseUrl.trim() === "") {
      dispatch({ type: "problem", message: t("form.baseUrlRequired") });
      return;
    }
    dispatch({ type: "problem", message: "" });
    list.mutate(modelListSource(state.values, connection), {
      onSuccess: (models) => dispatch({ type: "loaded", models }),
      onError: fail,
    });
  };
  return (
    <div ref={box}>
      <ModelFormView
        state={state}
        dispatch={dispatch}
        overview={overview}
        connection={connection}
        keyShown={keyShown}
        saving={save.isPending}
        loadingModels={list.isPending}
        onSubmit={onSubmit}
        onLoadModels={onLoadModels}
        onCancel={onDone}
      />
    </div>
  );
}

interface ModelFormViewProps {
  state: ModelFormState;
  dispatch: Dispatch<ModelFormAction>;
  overview: Pick<ModelsOverview, "presets" | "embeddedFiles">;
  connection?: ModelConnection;
  keyShown: boolean;
  saving: boolean;
  loadingModels: boolean;
  onSubmit: (event: FormEvent) => void;
  onLoadModels: () => void;
  onCancel: () => void;
}

/** The form's markup for a state: every input labelled, the problem (if any) as an alert above the buttons. */
export function ModelFormView(props: ModelFormViewProps) {
  const { state, dispatch, overview, connection } = props;
  const { t } = useTranslation("models");
  const { values } = state;
  const set = (field: Parameters<typeof setField>[0], value: string) => dispatch(setField(field, value));
  const title = connection ? t("form.editTitle", { name: connection.name }) : t("form.newTitle");
  return (
    <form
      className="form admin-form admin-models-form"
      aria-label={title}
      noValidate
      onSubmit={props.onSubmit}
    >
      <h3 tabIndex={-1}>{title}</h3>
      <AdminField label={t("form.name")} kind="text" value={values.name} onChange={(v) => set("name", v)} />
      <AdminField
        label={t("form.kind")}
        kind="select"
        value={values.kind}
        onChange={(v) =>
          dispatch({
            type: "kind",
            kind: v === "embedded" ? "embedded" : "openai",
            embeddedFiles: overview.embeddedFiles,
          })
        }
        options={[
          { value: "openai", label: t("kind.openai") },
          { value: "embedded", label: t("kind.embedded") },
        ]}
      />
      {values.kind === "openai" ? (
        <>
          <AdminField
            label={t("form.preset")}
            kind="select"
            value={values.preset}
            onChange={(v) => {
              if (isModelPreset(v, overview.presets))
                dispatch({ type: "preset", preset: v, presets: overview.presets });
            }}
            options={overview.presets.map((info) => ({
              value: info.preset,
              label: info.preset === "custom" ? t("form.presetCustom") : info.label,
            }))}
          />
          <AdminField
            label={t("form.baseUrl")}
            kind="text"
            value={values.baseUrl}
            onChange={(v) => set("baseUrl", v)}
          />
          {props.keyShown && (
            <ApiKeyField
              value={values.apiKey}
              hasStoredKey={connection?.hasApiKey === true}
              removeKey={values.removeKey}
              onChange={(v) => set("apiKey", v)}
              onRemoveKey={(value) => dispatch({ type: "removeKey", value })}
            />
          )}
          <ModelIdField
            value={values.model}
            loadedModels={state.loadedModels}
            loading={props.loadingModels}
            onChange={(v) => set("model", v)}
            onLoad={props.onLoadModels}
          />
        </>
      ) : (
        <EmbeddedFileField
          value={values.model}
          files={overview.embeddedFiles}
          onChange={(v) => set("model", v)}
        />
      )}
      <GenerationFields values={values} onChange={set} />
      {state.problem !== "" && (
        <p className="field__error admin-models__problem" role="alert">
          {state.problem}
        </p>
      )}
      <FormActions onCancel={props.onCancel} submitLabel={t("form.save")} pending={props.saving} />
    </form>
  );
}

/** The `set` action of one text field. */
function setField(field: Extract<ModelFormAction, { type: "set" }>["field"], value: string): ModelFormAction {
  return { type: "set", field, value };
}

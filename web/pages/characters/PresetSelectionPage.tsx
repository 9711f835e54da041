// The /characters/selection screen (product.md §2 "Preset selection"): preset cards, details, confirm, create.
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { PresetCharacter } from "../../../common/api";
import { Avatar } from "../../components/Avatar";
import { Spinner } from "../../components/Spinner";
import { contentUrl } from "../../lib/content";
import { succeed } from "../../lib/notify";
import { useCreateFromPreset } from "./hooks/useCreateFromPreset";
import { usePresets } from "./hooks/usePresets";
import { confirmPreset, showPresetDetails } from "./presetDialogs";
import "./characters.css";

/**
 * `/characters/selection` (product.md §2 "Preset selection", product.md §4): preset cards; a card opens its
 * details, then the confirmation; confirming creates the character (POST
 * /characters/create-preselect), shows a success toast and goes to the characters list.
 */
export function PresetSelectionPage() {
  const { t } = useTranslation("characters");
  const navigate = useNavigate();
  const presets = usePresets();
  const create = useCreateFromPreset();

  const choose = async (preset: PresetCharacter) => {
    if (create.isPending) return;
    if (!(await showPresetDetails(preset))) return;
    if (!(await confirmPreset(preset))) return;
    create.mutate(preset.characterPreDefinedUUID, {
      onSuccess: (answer) => {
        succeed(answer.message || t("presets.created", { name: preset.characterName }));
        navigate("/characters/list");
      },
    });
  };

  return (
    <section className="presets-page">
      <div className="page-heading">
        <h1>{t("presets.title")}</h1>
        <button type="button" className="button button--ghost" onClick={() => navigate("/characters/list")}>
          {t("presets.back")}
        </button>
      </div>
      {presets.isLoading ? (
        <div className="center-block">
          <Spinner label={t("presets.loading")} />
        </div>
      ) : presets.isError ? (
        <p className="muted center-block">{t("presets.loadFailed")}</p>
      ) : (presets.data ?? []).length === 0 ? (
        <p className="muted center-block">{t("presets.none")}</p>
      ) : (
        <ul className="preset-grid" aria-label={t("presets.list")}>
          {(presets.data ?? []).map((preset) => (
            <li key={preset.characterPreDefinedUUID}>
              <button
                type="button"
                className="preset-card"
                onClick={() => void choose(preset)}
                disabled={create.isPending}
              >
                <Avatar
                  className="preset-card__photo"
                  src={contentUrl("predefined-characters", preset.characterPhoto)}
                  alt=""
                  size={240}
                />
                <span className="preset-card__name">{preset.characterName}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {create.isPending && (
        <div className="overlay">
          <Spinner label={t("presets.creating")} />
        </div>
      )}
    </section>
  );
}

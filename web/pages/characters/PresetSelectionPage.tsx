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
 * `/characters/selection` (spec 2 "Preset selection", spec 4): preset cards; a card opens its
 * details, then the confirmation; confirming creates the character (POST
 * /characters/create-preselect), shows a success toast and goes to the characters list.
 */
export function PresetSelectionPage() {
  const navigate = useNavigate();
  const presets = usePresets();
  const create = useCreateFromPreset();

  const choose = async (preset: PresetCharacter) => {
    if (create.isPending) return;
    if (!(await showPresetDetails(preset))) return;
    if (!(await confirmPreset(preset))) return;
    create.mutate(preset.characterPreDefinedUUID, {
      onSuccess: (answer) => {
        succeed(answer.message || `${preset.characterName} was created.`);
        navigate("/characters/list");
      },
    });
  };

  return (
    <section className="presets-page">
      <div className="page-heading">
        <h1>Choose your companion</h1>
        <button type="button" className="button button--ghost" onClick={() => navigate("/characters/list")}>
          Go Back
        </button>
      </div>
      {presets.isLoading ? (
        <div className="center-block">
          <Spinner label="Loading characters" />
        </div>
      ) : presets.isError ? (
        <p className="muted center-block">Could not load the characters. Please try again later.</p>
      ) : (presets.data ?? []).length === 0 ? (
        <p className="muted center-block">No preset characters available.</p>
      ) : (
        <ul className="preset-grid" aria-label="Preset characters">
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
          <Spinner label="Creating your character" />
        </div>
      )}
    </section>
  );
}

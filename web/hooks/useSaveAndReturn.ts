// How the signed-in edit forms end (character, profile, change password): a success toast, then back to the list.
import { useState } from "react";
import { useNavigate } from "react-router";
import { succeed } from "../lib/notify";

/** Where the edit forms return to, on Cancel and after a save (product.md §4). */
const LIST_PATH = "/characters/list";

/** The state and the two ways out of a signed-in edit form (see `useSaveAndReturn`). */
export interface SaveAndReturn {
  /** True once saved: the form is not sent twice (`FormActions` `done`). */
  saved: boolean;
  /** Opens the characters list (Cancel). */
  backToList: () => void;
  /** Marks the form saved and shows `message` as a success toast; the list opens when it goes away. */
  onSaved: (message: string) => void;
}

/**
 * The ending the signed-in edit forms share (product.md §4): after a save the server's message
 * (or the form's own sentence) shows as a success toast and, when it goes away, the characters
 * list opens; Cancel opens it at once.
 */
export function useSaveAndReturn(): SaveAndReturn {
  const navigate = useNavigate();
  const [saved, setSaved] = useState(false);
  const backToList = () => navigate(LIST_PATH);
  const onSaved = (message: string) => {
    setSaved(true);
    succeed(message, undefined, backToList);
  };
  return { saved, backToList, onSaved };
}

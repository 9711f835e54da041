// The chat setting 'dark mode' applied to the whole signed-in area while its layout is shown (product.md §2).
import { useEffect } from "react";
import { useChatSettings } from "./useChatSettings";

/**
 * Applies the chat setting 'dark mode' (product.md §2) to the whole signed-in area while the calling
 * layout is shown: the class `theme-dark` on <html>, removed again when it unmounts.
 */
export function useDarkMode(): void {
  const [settings] = useChatSettings();
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle("theme-dark", settings.darkMode);
    return () => root.classList.remove("theme-dark");
  }, [settings.darkMode]);
}
